import type { Kysely } from 'kysely';
import { inSavepoint, savepoint, type SavepointOutcome } from './savepoint.ts';
import type { WriteJob } from './store.ts';
import type { Database } from './types.ts';

const JOB_SAVEPOINT = savepoint('batch_job');

interface Pending {
  readonly job: WriteJob<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

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
  /** The batch under way, if any. */
  private running: Promise<void> | undefined;
  /** Set while held (see hold): the batches after the current one wait for `release`. */
  private held: { readonly until: Promise<void>; readonly release: () => void } | undefined;

  private readonly db: Kysely<Database>;
  private readonly maxBatch: number;
  /** Milliseconds of jobs one batch runs before the rest wait for the next one. */
  private readonly budgetMs: number;
  constructor(db: Kysely<Database>, maxBatch: number = 128, budgetMs: number = 6) {
    this.db = db;
    this.maxBatch = maxBatch;
    this.budgetMs = budgetMs;
  }

  write<T>(job: WriteJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job: job as WriteJob<unknown>, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  /**
   * Holds the next batches back (the event loop stays free; their jobs wait in the queue) and resolves once no
   * batch is under way, so nothing writes until `release`. The store's checkpointer uses it to copy the end of the
   * write-ahead log while nothing is appended to it (see connect.ts).
   */
  async hold(): Promise<void> {
    if (!this.held) {
      let release: () => void = () => undefined;
      const until = new Promise<void>((resolve) => {
        release = resolve;
      });
      this.held = { until, release };
    }
    await this.running;
  }

  /** Lets the batches held back by `hold` run. */
  release(): void {
    const held = this.held;
    this.held = undefined;
    held?.release();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      // better-sqlite3 is synchronous: without yielding to the event loop first, a whole transaction (COMMIT
      // included) would run before the next request is even read, and no two writes would ever share a commit.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.queue.length > 0) {
        while (this.held) await this.held.until;
        const batch = this.queue.splice(0, this.maxBatch);
        this.running = this.runBatch(batch);
        await this.running;
        this.running = undefined;
        if (this.queue.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.draining = false;
    }
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    const outcomes: SavepointOutcome<unknown>[] = [];
    this.batches += 1;
    const started = performance.now();
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) {
          // The jobs of a batch run back to back without the event loop turning: past the budget, the rest wait
          // for the next batch (at the head of the queue), so no request waits long behind a big commit.
          if (outcomes.length > 0 && performance.now() - started > this.budgetMs) break;
          outcomes.push(await inSavepoint(trx, JOB_SAVEPOINT, item.job));
        }
      });
    } catch (error) {
      // The shared commit failed: nothing of this batch is durable (those past the budget are refused too: the
      // store is failing).
      for (const item of batch) item.reject(error);
      return;
    }
    this.queue.unshift(...batch.slice(outcomes.length));
    batch.slice(0, outcomes.length).forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome ? outcome.error : new Error('batch job lost'));
    });
  }
}
