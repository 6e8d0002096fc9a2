import { CompiledQuery, type Transaction } from 'kysely';
import type { Database, Db } from './types.js';

/** Savepoint statements, compiled once (they run several times per write). */
const BATCH_JOB_SAVEPOINT = {
  open: CompiledQuery.raw('savepoint batch_job'),
  release: CompiledQuery.raw('release savepoint batch_job'),
  rollback: CompiledQuery.raw('rollback to savepoint batch_job'),
};

export type BatchJob<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  readonly job: BatchJob<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for the embedded store. SQLite runs one writer at a time and every commit is flushed to disk
 * before it is answered (src/db/wal-sync.ts); so the writes that arrive while a commit is under way are run
 * together in the next transaction, each inside its own savepoint (one job's failure undoes only that job), and all of them
 * are answered only after their shared COMMIT is durable.
 */
export class WriteBatcher {
  private readonly queue: Pending[] = [];
  private draining = false;
  /** Transactions committed (or attempted) so far: with concurrent writers, well below the jobs submitted. */
  batches = 0;

  constructor(
    private readonly db: Db,
    private readonly maxBatch = 128,
  ) {}

  submit<T>(job: BatchJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (value: unknown) => void, reject });
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
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    this.batches += 1;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) {
          await trx.executeQuery(BATCH_JOB_SAVEPOINT.open);
          try {
            const value = await item.job(trx);
            await trx.executeQuery(BATCH_JOB_SAVEPOINT.release);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await trx.executeQuery(BATCH_JOB_SAVEPOINT.rollback);
            await trx.executeQuery(BATCH_JOB_SAVEPOINT.release);
            outcomes.push({ ok: false, error });
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
