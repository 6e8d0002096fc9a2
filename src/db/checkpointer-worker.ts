/**
 * Runs in a worker thread beside a serving SQLite store: copies the write-ahead log back into the database
 * file every `intervalMs` on its own connection, so that work (and its fsync) is never done inside a request's
 * commit on the main thread. A PASSIVE checkpoint never blocks the writer or readers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteDatabase } from './sqlite-driver.js';

interface CheckpointerData {
  readonly filename: string;
  readonly intervalMs: number;
}

const { filename, intervalMs } = workerData as CheckpointerData;
const db = new SqliteDatabase(filename);
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = FULL');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked this time: the next tick tries again (and the store's own fallback threshold holds).
  }
}, intervalMs);

parentPort?.on('message', (message: unknown) => {
  if (message === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort?.close();
  }
});
