/**
 * The background thread (see thread.ts): starts each service it is handed on the channel it came with, by loading
 * the module its owner named. A service's module is loaded with its first start, so a thread that only sends
 * webhooks never loads SQLite.
 */
import { parentPort } from 'node:worker_threads';
import type { ServeOnThread, StartService } from './thread.ts';

if (!parentPort) throw new Error('background/worker.ts runs as a worker thread');

async function start({ module, entry, data, port }: StartService): Promise<void> {
  const loaded = (await import(module)) as Record<string, unknown>;
  const serve = loaded[entry];
  if (typeof serve !== 'function') throw new Error(`${module} has no function ${entry}`);
  (serve as ServeOnThread<unknown>)(port, data);
}

// A service that fails to start ends the thread (in a worker, `process.exit` ends the thread, not the process):
// its owner, and every other service's, is told by the thread's exit, as for any other error.
parentPort.on('message', (message: StartService) => {
  start(message).catch(() => process.exit(1));
});
