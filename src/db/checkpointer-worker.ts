/**
 * Runs on the background thread (background/thread.ts) beside a serving SQLite store: copies the write-ahead log
 * back into the database file on its own connection, so that work (and its fsync) is never done inside a
 * request's commit on the main thread. Its checkpoints are PASSIVE: they never block the writer or readers.
 *
 * Under steady writes a pass never reaches the end of the log (commits append while it copies), and a log that
 * is never wholly copied is never restarted from its beginning: it would grow until a commit hit the store's
 * fallback threshold and checkpointed inside itself, on the event loop. So when the log has grown past
 * `restartPages`, the checkpointer asks the serving thread to hold its writes (`hold`, answered `held`: no batch is
 * under way and the next ones wait, while reads go on), copies the rest, and lets the writes go (`release`).
 * The next commit then starts the log over.
 */
import type { MessagePort } from 'node:worker_threads';
import { SqliteDatabase } from './sqlite-driver.ts';

export interface CheckpointerData {
  readonly filename: string;
  readonly intervalMs: number;
  /** Log size (pages) from which a round holds the writes so the log can start over. */
  readonly restartPages: number;
}

/** How long the checkpointer waits for `held` before it gives up on this round (the writer may be busy). */
const HOLD_WAIT_MS = 1_000;

interface CheckpointResult {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

/**
 * Checkpoints `filename` every `intervalMs` until the serving thread says `stop` (answered `stopped` once the
 * connection is closed) or closes the channel. A checkpoint holds this thread while it copies (the other service on it,
 * the webhook sender, waits meanwhile), never the event loop that serves the API.
 */
export function serveCheckpoints(port: MessagePort, { filename, intervalMs, restartPages }: CheckpointerData): void {
  const db = new SqliteDatabase(filename);
  db.pragma('busy_timeout = 1000');
  db.pragma('synchronous = FULL');
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  function checkpoint(): CheckpointResult | undefined {
    try {
      return (db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0];
    } catch {
      return undefined; // busy or locked this time: the next round tries again
    }
  }

  function waitForHeld(): Promise<boolean> {
    return new Promise((resolve) => {
      const onMessage = (message: unknown): void => {
        if (message !== 'held') return;
        clearTimeout(timeout);
        port.off('message', onMessage);
        resolve(true);
      };
      const timeout = setTimeout(() => {
        port.off('message', onMessage);
        resolve(false);
      }, HOLD_WAIT_MS);
      port.on('message', onMessage);
    });
  }

  async function round(): Promise<void> {
    const pass = checkpoint();
    if (!pass || pass.busy !== 0 || pass.log < restartPages || stopped) return;
    port.postMessage('hold');
    const held = await waitForHeld();
    try {
      if (held && !stopped) checkpoint();
    } finally {
      port.postMessage('release');
    }
  }

  function schedule(): void {
    timer = setTimeout(() => {
      void round().finally(() => {
        if (!stopped) schedule();
      });
    }, intervalMs);
  }

  function stop(): void {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    db.close();
  }

  schedule();
  port.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    stop();
    port.postMessage('stopped');
  });
  port.on('close', stop);
}
