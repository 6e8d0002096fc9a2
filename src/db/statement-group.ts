/**
 * Concurrent calls of one statement, sent as one (PostgreSQL). A statement that can act on many rows at once (a
 * set-based write over a JSON recordset) costs the server one round trip, one snapshot and one commit however many
 * rows it carries; so calls that arrive while earlier ones are still at the server wait for them and then go
 * together. A call that arrives while fewer than `maxRunning` statements are under way goes at once, alone, unless
 * callers are concurrent (see `gatherMs`): under load the calls gather by themselves.
 */

interface Waiting<Item, Outcome> {
  readonly item: Item;
  readonly conflicts: readonly string[];
  readonly resolve: (outcome: Outcome) => void;
  readonly reject: (error: unknown) => void;
}

export interface StatementGroupOptions<Item, Outcome> {
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
  /**
   * While callers are concurrent (a call arrived, within the last `concurrentForMs`, while another was still
   * unanswered), a statement that would go with fewer than `gatherBelow` items first waits this long for the calls
   * about to arrive: at a steady rate below saturation each would otherwise go, and commit, alone. A lone caller's
   * next call comes after its answer, so it never waits. Default 0: never wait.
   */
  readonly gatherMs?: number;
  readonly gatherBelow?: number;
  readonly concurrentForMs?: number;
}

export class StatementGroup<Item, Outcome> {
  private readonly waiting: Waiting<Item, Outcome>[] = [];
  private running = 0;
  /** Calls submitted and not yet answered. */
  private unanswered = 0;
  /** performance.now() when a call last arrived while another was unanswered. */
  private concurrentAt = Number.NEGATIVE_INFINITY;
  /** Set while the next statement waits for company. */
  private gathering: NodeJS.Timeout | undefined;

  private readonly options: StatementGroupOptions<Item, Outcome>;

  constructor(options: StatementGroupOptions<Item, Outcome>) {
    this.options = options;
  }

  /** The item's outcome, once the statement that carried it has run. */
  submit(item: Item): Promise<Outcome> {
    if (this.unanswered > 0) this.concurrentAt = performance.now();
    this.unanswered += 1;
    return new Promise<Outcome>((resolve, reject) => {
      const answered = () => {
        this.unanswered -= 1;
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

  /** Whether the next statement waits for company first (see gatherMs). */
  private gathers(): boolean {
    const { gatherMs = 0, gatherBelow = 16, concurrentForMs = 100 } = this.options;
    return gatherMs > 0 && this.waiting.length < gatherBelow && performance.now() - this.concurrentAt < concurrentForMs;
  }

  private send(gathered: boolean): void {
    if (this.gathering !== undefined) return;
    while (this.running < this.options.maxRunning && this.waiting.length > 0) {
      if (!gathered && this.gathers()) {
        this.gathering = setTimeout(() => {
          this.gathering = undefined;
          this.send(true);
        }, this.options.gatherMs);
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
