/**
 * How a batch of fused writes of the same statements is applied: together in one statement, or one by one.
 */
export interface BatchRunner<S, V> {
  /**
   * Applies the items in one statement, in the order given; resolves with the indexes of those that applied.
   * Rejects only when the statement failed as a whole (so none of it committed).
   */
  together(shape: S, items: readonly V[]): Promise<ReadonlySet<number>>;
  /** Applies one item in a statement of its own; whether it applied. */
  alone(shape: S, item: V): Promise<boolean>;
}

export interface BatchedItem<S, V> {
  /** Items batch together only with items of the same statements (one statement text per statements and count). */
  readonly shape: S;
  readonly values: V;
  /** The row the item changes: a batch changes each row once, and its rows in ascending order. */
  readonly row: string;
  /** The idempotency key it writes under: no two items of one batch share one. */
  readonly key: string;
}

interface Waiting<S, V> extends BatchedItem<S, V> {
  readonly resolve: (applied: boolean) => void;
  readonly reject: (error: unknown) => void;
}

export interface FusedBatcherOptions {
  /** Statements in flight at once; items that arrive meanwhile wait and go together in the next one. */
  readonly concurrency?: number;
  /** The most items in one statement. */
  readonly maxBatch?: number;
}

/**
 * Applies concurrent fused writes together (PostgreSQL): while `concurrency` statements are in flight, new items wait, and the
 * next statement applies all that waited (up to `maxBatch`) at once, in one statement and one commit. Under low
 * load nothing waits and every item runs alone, as it would without the batcher; under load the database parses,
 * plans, commits and answers once per batch instead of once per item.
 *
 * Each batch changes a row at most once (a statement cannot change a row twice) and its rows in ascending order,
 * so concurrent batches that share rows wait for each other instead of deadlocking. When a batch's statement
 * fails, nothing of it committed, and each item is applied alone, where its own outcome (applied, not applied or
 * its error) is its answer.
 */
export class FusedBatcher<S, V> {
  private waiting: Waiting<S, V>[] = [];
  private running = 0;
  private readonly concurrency: number;
  private readonly maxBatch: number;

  private readonly runner: BatchRunner<S, V>;
  constructor(runner: BatchRunner<S, V>, options: FusedBatcherOptions = {}) {
    this.runner = runner;
    this.concurrency = options.concurrency ?? 4;
    this.maxBatch = options.maxBatch ?? 32;
  }

  /** Whether the item applied (see BatchRunner). */
  apply(item: BatchedItem<S, V>): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ shape: item.shape, values: item.values, row: item.row, key: item.key, resolve, reject });
      this.launch();
    });
  }

  private launch(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const batch = this.take();
      this.running += 1;
      void this.run(batch).finally(() => {
        this.running -= 1;
        this.launch();
      });
    }
  }

  /** The next batch: the oldest item's statements, one item per row and per key; the rest wait. */
  private take(): Waiting<S, V>[] {
    const shape = this.waiting[0]?.shape;
    const batch: Waiting<S, V>[] = [];
    const left: Waiting<S, V>[] = [];
    const rows = new Set<string>();
    const keys = new Set<string>();
    for (const item of this.waiting) {
      if (
        batch.length < this.maxBatch &&
        item.shape === shape &&
        !rows.has(item.row) &&
        !keys.has(item.key)
      ) {
        batch.push(item);
        rows.add(item.row);
        keys.add(item.key);
      } else {
        left.push(item);
      }
    }
    this.waiting = left;
    return batch.sort((a, b) => (a.row < b.row ? -1 : a.row > b.row ? 1 : 0));
  }

  private async run(batch: readonly Waiting<S, V>[]): Promise<void> {
    const first = batch[0];
    if (!first) return;
    if (batch.length === 1) {
      await this.alone(first);
      return;
    }
    let applied: ReadonlySet<number>;
    try {
      applied = await this.runner.together(
        first.shape,
        batch.map((item) => item.values),
      );
    } catch {
      // Nothing of the batch committed: each item on its own says what it comes to.
      await Promise.all(batch.map((item) => this.alone(item)));
      return;
    }
    batch.forEach((item, i) => item.resolve(applied.has(i)));
  }

  private async alone(item: Waiting<S, V>): Promise<void> {
    try {
      item.resolve(await this.runner.alone(item.shape, item.values));
    } catch (error) {
      item.reject(error);
    }
  }
}
