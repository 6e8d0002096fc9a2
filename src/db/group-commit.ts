/**
 * The store's writers that share one commit among concurrent writes: the group commit of SQLite (GroupCommit,
 * behind Store.write) and the statement group of PostgreSQL (StatementGroup, concurrent calls of one statement
 * sent as one), with the one batching policy both follow (CompanyPolicy, waiting for company).
 */
import type { Kysely, Transaction } from 'kysely';
import { inSavepoint, savepoint, type SavepointOutcome } from './compiled.ts';
import type { WriteJob } from './store.ts';
import type { Database } from './types.ts';

const JOB_SAVEPOINT = savepoint('batch_job');

/**
 * Waiting for company: the batching policy of both writers, the group commit (SQLite) and the statement group
 * (PostgreSQL). A batch goes as soon as it can; but while callers are concurrent (a call arrived, within the last
 * `concurrentForMs`, while another was still unanswered), one that would go with fewer than `gatherBelow` calls
 * first waits `gatherMs` for the calls about to arrive: at a steady rate below saturation each would otherwise go,
 * and commit, alone. A lone caller's next call comes after its answer, so it never waits. `gatherMs` 0: never wait.
 */
export interface CompanyPolicy {
  readonly gatherMs: number;
  readonly gatherBelow: number;
  readonly concurrentForMs: number;
}

/** The policy both writers use (docs/BENCHMARKS.md, "Waiting for company", says what it saves). */
export const WAIT_FOR_COMPANY: CompanyPolicy = { gatherMs: 2, gatherBelow: 16, concurrentForMs: 100 };

/** A writer's callers as the policy sees them: how many are unanswered, and when they were last concurrent. */
class Company {
  private unanswered = 0;
  /** performance.now() when a call last arrived while another was unanswered. */
  private concurrentAt = Number.NEGATIVE_INFINITY;
  readonly policy: CompanyPolicy;

  constructor(policy: Partial<CompanyPolicy>) {
    this.policy = { ...WAIT_FOR_COMPANY, ...policy };
  }

  arrived(): void {
    if (this.unanswered > 0) this.concurrentAt = performance.now();
    this.unanswered += 1;
  }

  answered(): void {
    this.unanswered -= 1;
  }

  /** Whether a batch of `queued` calls, free to go, first waits `gatherMs` for company. */
  waits(queued: number): boolean {
    const { gatherMs, gatherBelow, concurrentForMs } = this.policy;
    return gatherMs > 0 && queued < gatherBelow && performance.now() - this.concurrentAt < concurrentForMs;
  }
}

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

/** The group commit's settings; waiting for company (CompanyPolicy) as WAIT_FOR_COMPANY unless given. */
export interface GroupCommitOptions extends Partial<CompanyPolicy> {
  /** Jobs one transaction takes at most. */
  readonly maxBatch?: number;
  /** Milliseconds of jobs one batch runs before the rest wait for the next one. */
  readonly budgetMs?: number;
  /** The store's after-commit listeners: called after a batch's commit when one of its committed jobs asked. */
  readonly commits?: AfterCommitMarks;
}

/**
 * Group commit for the embedded store (behind Store.write). SQLite runs one writer at a time and every commit is
 * flushed to disk before it is answered (sqlite-dialect.ts); so the writes that arrive while a commit is under way are
 * run together in the next transaction, each inside its own savepoint (one job's failure undoes only that job),
 * and all of them are answered only after their shared COMMIT is durable. A batch that would start short waits
 * for company (CompanyPolicy).
 */
export class GroupCommit {
  private readonly queue: Pending[] = [];
  private draining = false;
  /** The jobs written and not yet answered (queued, running or waiting for their flush). */
  private readonly company: Company;
  /** Transactions committed (or attempted) so far: with concurrent writers, well below the jobs submitted. */
  batches = 0;
  /** The batch under way, if any. */
  private running: Promise<void> | undefined;
  /** Set while held (see hold): the batches after the current one wait for `release`. */
  private held: { readonly until: Promise<void>; readonly release: () => void } | undefined;

  private readonly db: Kysely<Database>;
  private readonly maxBatch: number;
  private readonly budgetMs: number;
  private readonly commits: AfterCommitMarks | undefined;
  constructor(db: Kysely<Database>, options: GroupCommitOptions = {}) {
    this.db = db;
    this.maxBatch = options.maxBatch ?? 128;
    this.budgetMs = options.budgetMs ?? 6;
    this.company = new Company(options);
    this.commits = options.commits;
  }

  write<T>(job: WriteJob<T>): Promise<T> {
    this.company.arrived();
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        job: job as WriteJob<unknown>,
        resolve: (value) => {
          this.company.answered();
          resolve(value as T);
        },
        reject: (error) => {
          this.company.answered();
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
      // Waiting for company (CompanyPolicy): the writes about to arrive then share this batch's commit and flush.
      if (this.company.waits(this.queue.length)) {
        await new Promise<void>((resolve) => setTimeout(resolve, this.company.policy.gatherMs));
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

interface Waiting<Item, Outcome> {
  readonly item: Item;
  readonly conflicts: readonly string[];
  readonly resolve: (outcome: Outcome) => void;
  readonly reject: (error: unknown) => void;
}

/** The statement group's settings; waiting for company (CompanyPolicy) as WAIT_FOR_COMPANY unless given. */
export interface StatementGroupOptions<Item, Outcome> extends Partial<CompanyPolicy> {
  /** Runs one statement for the items; one outcome per item, in their order. */
  readonly run: (items: readonly Item[]) => Promise<readonly Outcome[]>;
  /**
   * What an item writes (a row, a key): two items that share one of these never go in one statement, whose
   * sub-statements would meet on the same row; the later one waits for the next statement.
   */
  readonly conflicts: (item: Item) => readonly string[];
  /** Statements under way at most; the calls that arrive meanwhile wait, gathering. */
  readonly maxRunning: number;
  /** Items one statement carries at most. */
  readonly maxItems: number;
}

/**
 * Concurrent calls of one statement, sent as one (PostgreSQL). A statement that can act on many rows at once (a
 * set-based write over a JSON recordset) costs the server one round trip, one snapshot and one commit however many
 * rows it carries; so calls that arrive while earlier ones are still at the server wait for them and then go
 * together. A call that arrives while fewer than `maxRunning` statements are under way goes at once, alone, unless
 * it waits for company (CompanyPolicy): under load the calls gather by themselves.
 */
export class StatementGroup<Item, Outcome> {
  private readonly waiting: Waiting<Item, Outcome>[] = [];
  private running = 0;
  /** The calls submitted and not yet answered. */
  private readonly company: Company;
  /** Set while the next statement waits for company. */
  private gathering: NodeJS.Timeout | undefined;

  private readonly options: StatementGroupOptions<Item, Outcome>;

  constructor(options: StatementGroupOptions<Item, Outcome>) {
    this.options = options;
    this.company = new Company(options);
  }

  /** The item's outcome, once the statement that carried it has run. */
  submit(item: Item): Promise<Outcome> {
    this.company.arrived();
    return new Promise<Outcome>((resolve, reject) => {
      const answered = () => {
        this.company.answered();
      };
      this.waiting.push({
        item,
        conflicts: this.options.conflicts(item),
        resolve: (outcome) => {
          answered();
          resolve(outcome);
        },
        reject: (error) => {
          answered();
          reject(error);
        },
      });
      this.send(false);
    });
  }

  private send(gathered: boolean): void {
    if (this.gathering !== undefined) return;
    while (this.running < this.options.maxRunning && this.waiting.length > 0) {
      if (!gathered && this.company.waits(this.waiting.length)) {
        this.gathering = setTimeout(() => {
          this.gathering = undefined;
          this.send(true);
        }, this.company.policy.gatherMs);
        return;
      }
      const batch = this.take();
      this.running += 1;
      void this.runBatch(batch).finally(() => {
        this.running -= 1;
        // What waited for this statement has waited enough: it goes at once.
        this.send(true);
      });
    }
  }

  private async runBatch(batch: readonly Waiting<Item, Outcome>[]): Promise<void> {
    try {
      const outcomes = await this.options.run(batch.map((entry) => entry.item));
      if (outcomes.length !== batch.length) throw new Error(`a statement of ${batch.length} items gave ${outcomes.length} outcomes`);
      batch.forEach((entry, index) => entry.resolve(outcomes[index] as Outcome));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }

  /** The first waiting items, in order, up to maxItems, none sharing a conflict with an earlier one taken. */
  private take(): Waiting<Item, Outcome>[] {
    const taken: Waiting<Item, Outcome>[] = [];
    const seen = new Set<string>();
    let index = 0;
    while (index < this.waiting.length && taken.length < this.options.maxItems) {
      const entry = this.waiting[index] as Waiting<Item, Outcome>;
      if (entry.conflicts.some((conflict) => seen.has(conflict))) {
        index += 1;
        continue;
      }
      for (const conflict of entry.conflicts) seen.add(conflict);
      taken.push(entry);
      this.waiting.splice(index, 1);
    }
    return taken;
  }
}
