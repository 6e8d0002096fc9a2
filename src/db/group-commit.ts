import type { Kysely, Transaction } from 'kysely';
import { inSavepoint, savepoint, type SavepointOutcome } from './compiled.ts';
import type { WriteJob } from './store.ts';
import type { Database } from './types.ts';

const JOB_SAVEPOINT = savepoint('batch_job');

interface Pending {
  readonly job: WriteJob<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * What the group commit needs of its store's after-commit listeners (src/db/connect.ts, CommitListeners): to mark
 * a job's transaction, to learn whether the job asked for the call, and to make it once the shared commit is
 * durable.
 */
export interface AfterCommitMarks {
  begin(trx: Transaction<Database>): void;
  asked(trx: Transaction<Database>): boolean;
  notify(): void;
}

export interface GroupCommitOptions {
  /** Jobs one transaction takes at most. */
  readonly maxBatch?: number;
  /** Milliseconds of jobs one batch runs before the rest wait for the next one. */
  readonly budgetMs?: number;
  /** How long a batch that would start with a short queue waits for company while writers are concurrent. */
  readonly gatherMs?: number;
  /** Writers count as concurrent for this long after a job arrived while another was still unanswered. */
  readonly concurrentForMs?: number;
  /** The store's after-commit listeners: called after a batch's commit when one of its committed jobs asked. */
  readonly commits?: AfterCommitMarks;
}

/** A queue this long already shares its commit widely: its batch starts at once. */
export const GATHER_BELOW = 16;

/**
 * Group commit for the embedded store (behind Store.write). SQLite runs one writer at a time and every commit is
 * flushed to disk before it is answered (sqlite-dialect.ts); so the writes that arrive while a commit is under way are
 * run together in the next transaction, each inside its own savepoint (one job's failure undoes only that job),
 * and all of them are answered only after their shared COMMIT is durable. When writers are concurrent, a batch
 * that would start alone first waits a moment for the writes about to arrive (see `drain`).
 */
export class GroupCommit {
  private readonly queue: Pending[] = [];
  private draining = false;
  /** Jobs written and not yet answered (queued, running or waiting for their flush). */
  private unanswered = 0;
  /** performance.now() when a job last arrived while another was unanswered. */
  private concurrentAt = Number.NEGATIVE_INFINITY;
  /** Transactions committed (or attempted) so far: with concurrent writers, well below the jobs submitted. */
  batches = 0;
  /** The batch under way, if any. */
  private running: Promise<void> | undefined;
  /** Set while held (see hold): the batches after the current one wait for `release`. */
  private held: { readonly until: Promise<void>; readonly release: () => void } | undefined;

  private readonly db: Kysely<Database>;
  private readonly maxBatch: number;
  private readonly budgetMs: number;
  private readonly gatherMs: number;
  private readonly concurrentForMs: number;
  private readonly commits: AfterCommitMarks | undefined;
  constructor(db: Kysely<Database>, options: GroupCommitOptions = {}) {
    this.db = db;
    this.maxBatch = options.maxBatch ?? 128;
    this.budgetMs = options.budgetMs ?? 6;
    this.gatherMs = options.gatherMs ?? 2;
    this.concurrentForMs = options.concurrentForMs ?? 100;
    this.commits = options.commits;
  }

  write<T>(job: WriteJob<T>): Promise<T> {
    if (this.unanswered > 0) this.concurrentAt = performance.now();
    this.unanswered += 1;
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        job: job as WriteJob<unknown>,
        resolve: (value) => {
          this.unanswered -= 1;
          resolve(value as T);
        },
        reject: (error) => {
          this.unanswered -= 1;
          reject(error);
        },
      });
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
      // At a steady rate below saturation (hundreds of writes a second) each write would otherwise commit, and
      // flush the log, alone: a batch that starts with a short queue waits gatherMs for the writes about to
      // arrive, which then share its commit and its flush. Only while writers are concurrent: a lone writer's
      // next write comes after its answer, so waiting would only delay it.
      if (this.queue.length < GATHER_BELOW && performance.now() - this.concurrentAt < this.concurrentForMs) {
        await new Promise<void>((resolve) => setTimeout(resolve, this.gatherMs));
      }
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
    const commits = this.commits;
    // Whether a job that kept its writes asked to notify the store's listeners (one undone by its savepoint
    // does not count).
    let notify = false;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) {
          // The jobs of a batch run back to back without the event loop turning: past the budget, the rest wait
          // for the next batch (at the head of the queue), so no request waits long behind a big commit.
          if (outcomes.length > 0 && performance.now() - started > this.budgetMs) break;
          commits?.begin(trx);
          const outcome = await inSavepoint(trx, JOB_SAVEPOINT, item.job);
          if (outcome.ok && commits?.asked(trx) === true) notify = true;
          outcomes.push(outcome);
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
    if (notify) commits?.notify();
  }
}
