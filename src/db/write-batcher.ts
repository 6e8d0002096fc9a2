import { CompiledQuery, type Transaction } from 'kysely';
import type { Database, Db } from './types.js';

/** Savepoint statements, compiled once (they run several times per write). */
const BATCH_JOB_SAVEPOINT = {
  open: CompiledQuery.raw('savepoint batch_job'),
  release: CompiledQuery.raw('release savepoint batch_job'),
  rollback: CompiledQuery.raw('rollback to savepoint batch_job'),
};

export type BatchJob<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * The embedded store's connection, run synchronously: inside a batch it is the batch's transaction. A job whose
 * statements are all known up front runs this way without a Kysely round trip (several promise hops) per
 * statement; on the heartbeat's path that is a measurable share of a request.
 */
export interface DirectSqlite {
  all<R>(query: CompiledQuery<R>): R[];
  run(query: CompiledQuery): void;
}

/** A job that runs synchronously on the batch's connection (see DirectSqlite). */
export type DirectJob<T> = (sqlite: DirectSqlite) => T;

type Pending = {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
} & ({ readonly job: BatchJob<unknown> } | { readonly direct: DirectJob<unknown> });

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

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
    private readonly sqlite?: DirectSqlite,
  ) {}

  submit<T>(job: BatchJob<T>): Promise<T> {
    return this.enqueue<T>({ job });
  }

  /** Runs `direct` synchronously inside the next batch, in a savepoint of its own like any job. */
  submitDirect<T>(direct: DirectJob<T>): Promise<T> {
    if (!this.sqlite) return Promise.reject(new Error('this batcher was given no direct connection'));
    return this.enqueue<T>({ direct });
  }

  private enqueue<T>(work: { readonly job: BatchJob<unknown> } | { readonly direct: DirectJob<unknown> }): Promise<T> {
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
    const outcomes: Outcome[] = [];
    this.batches += 1;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) {
          if ('direct' in item) {
            outcomes.push(this.runDirect(item.direct));
            continue;
          }
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

  /** A direct job in its savepoint (the batch's transaction is open on the same connection). */
  private runDirect(direct: DirectJob<unknown>): Outcome {
    const sqlite = this.sqlite as DirectSqlite;
    sqlite.run(BATCH_JOB_SAVEPOINT.open);
    try {
      const value = direct(sqlite);
      sqlite.run(BATCH_JOB_SAVEPOINT.release);
      return { ok: true, value };
    } catch (error) {
      sqlite.run(BATCH_JOB_SAVEPOINT.rollback);
      sqlite.run(BATCH_JOB_SAVEPOINT.release);
      return { ok: false, error };
    }
  }
}
