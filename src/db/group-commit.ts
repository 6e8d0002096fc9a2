import type { Kysely } from 'kysely';
import { inSavepoint, inSavepointSync, savepoint, type SavepointOutcome, type SyncStatements } from './savepoint.js';
import type { SyncWriteJob, WriteJob } from './store.js';
import type { Database } from './types.js';

const JOB_SAVEPOINT = savepoint('batch_job');

type Pending = {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
} & ({ readonly job: WriteJob<unknown> } | { readonly sync: SyncWriteJob<unknown> });

/**
 * Group commit for the embedded store (behind Store.write). SQLite runs one writer at a time and every commit is
 * flushed to disk before it is answered (wal-sync.ts); so the writes that arrive while a commit is under way are
 * run together in the next transaction, each inside its own savepoint (one job's failure undoes only that job),
 * and all of them are answered only after their shared COMMIT is durable.
 */
export class GroupCommit {
  private readonly queue: Pending[] = [];
  private draining = false;
  /** Transactions committed (or attempted) so far: with concurrent writers, well below the jobs submitted. */
  batches = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connection: SyncStatements,
    private readonly maxBatch = 128,
  ) {}

  write<T>(job: WriteJob<T>): Promise<T> {
    return this.enqueue<T>({ job });
  }

  /** Runs `sync` synchronously inside the next batch, in a savepoint of its own like any job. */
  writeSync<T>(sync: SyncWriteJob<T>): Promise<T> {
    return this.enqueue<T>({ sync });
  }

  private enqueue<T>(work: { readonly job: WriteJob<unknown> } | { readonly sync: SyncWriteJob<unknown> }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ ...work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      // better-sqlite3 is synchronous: without yielding to the event loop first, a whole transaction (COMMIT
      // included) would run before the next request is even read, and no two writes would ever share a commit.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.runBatch(batch);
        if (this.queue.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.draining = false;
    }
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    const outcomes: SavepointOutcome<unknown>[] = [];
    this.batches += 1;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) {
          if ('sync' in item) {
            // The batch's transaction is open on the same connection.
            outcomes.push(inSavepointSync(this.connection, JOB_SAVEPOINT, item.sync));
          } else {
            outcomes.push(await inSavepoint(trx, JOB_SAVEPOINT, item.job));
          }
        }
      });
    } catch (error) {
      // The shared commit failed: nothing of this batch is durable.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome ? outcome.error : new Error('batch job lost'));
    });
  }
}
