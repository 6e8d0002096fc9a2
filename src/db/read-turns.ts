/**
 * Bounds how long reads hold one turn of the event loop on SQLite, whose driver is synchronous: a report's
 * statements run to their end before anything else, and a turn that takes in 32 report requests would run 32
 * reports back to back while timers, finished flushes and other requests wait behind them.
 *
 * Reads run at once while the current turn has spent less than its budget on them and none are waiting; past it,
 * they queue (first come, first served) and run in later turns, each turn taking as many as fit its budget. Work
 * is not lost or reordered, only spread over turns: the same reads cost the same CPU, and what waits behind them
 * waits at most about one budget.
 */
export class ReadTurns {
  private readonly queue: Array<() => Promise<void>> = [];
  /** Whether the current turn has run a read (the window closes in this turn's check phase). */
  private windowOpen = false;
  private windowStart = 0;
  private draining = false;

  private readonly budgetMs: number;
  constructor(budgetMs: number) {
    this.budgetMs = budgetMs;
  }

  /** Runs `job` now when the turn's budget allows, else in a later turn; resolves or rejects as `job` does. */
  run<T>(job: () => Promise<T>): Promise<T> {
    if (!this.draining && this.queue.length === 0 && this.withinBudget()) return job();
    return new Promise<T>((resolve, reject) => {
      this.queue.push(() => job().then(resolve, reject));
      this.scheduleDrain();
    });
  }

  /** Reads waiting for a turn. */
  get waiting(): number {
    return this.queue.length;
  }

  private withinBudget(): boolean {
    const now = performance.now();
    if (!this.windowOpen) {
      this.windowOpen = true;
      this.windowStart = now;
      // Requests arrive in the poll phase; this runs after it, in the same turn's check phase.
      setImmediate(() => {
        this.windowOpen = false;
      });
      return true;
    }
    return now - this.windowStart < this.budgetMs;
  }

  private scheduleDrain(): void {
    if (this.draining) return;
    this.draining = true;
    // From the poll phase, one setImmediate would still run in this turn (its check phase); the second one runs
    // in the next turn, after its timers and its poll phase.
    setImmediate(() => setImmediate(() => void this.drain()));
  }

  private async drain(): Promise<void> {
    const started = performance.now();
    let next = this.queue.shift();
    while (next) {
      // A SQLite read settles within this callback's microtasks: the loop measures the time it really took.
      await next();
      if (this.queue.length > 0 && performance.now() - started >= this.budgetMs) {
        // Called from a check phase: the next turn.
        setImmediate(() => void this.drain());
        return;
      }
      next = this.queue.shift();
    }
    this.draining = false;
  }
}
