/**
 * The background thread (see thread.ts): starts each service it is handed on the channel it came with. A service's
 * module is loaded with its first start, so a thread that only sends webhooks never loads SQLite.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { BackgroundService, BackgroundServices, StartService } from './thread.ts';

type Serve<K extends BackgroundService> = (port: MessagePort, data: BackgroundServices[K]) => void;

const SERVICES: { readonly [K in BackgroundService]: () => Promise<Serve<K>> } = {
  checkpointer: async () => (await import('../db/checkpointer-worker.ts')).serveCheckpoints,
  sender: async () => (await import('../features/webhooks/sender-worker.ts')).serveSends,
};

if (!parentPort) throw new Error('background/worker.ts runs as a worker thread');

function start<K extends BackgroundService>({ service, data, port }: StartService<K>): Promise<void> {
  return SERVICES[service]().then((serve) => serve(port, data));
}

// A service that fails to start ends the thread (in a worker, `process.exit` ends the thread, not the process):
// its owner, and every other service's, is told by the thread's exit, as for any other error.
parentPort.on('message', (message: StartService) => {
  start(message).catch(() => process.exit(1));
});
