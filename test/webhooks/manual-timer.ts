import type { Timer, TimerHandle } from '../../src/webhooks/timer.ts';

interface Scheduled {
  readonly due: number;
  readonly ms: number;
  readonly callback: () => void;
}

/** How long a test waits for something the code under test is about to do (a real request, a timer armed). */
export const WAIT_CAP_MS = 5_000;

/**
 * A timer that moves only when the test moves it: `advance(ms)` fires, in order and each at its own time, the
 * callbacks that fall due. Its time starts at 0 and has nothing to do with the app's clock.
 */
export class ManualTimer implements Timer {
  private now = 0;
  private readonly scheduled = new Set<Scheduled>();
  private readonly waiters = new Set<() => void>();

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const entry: Scheduled = { due: this.now + Math.max(0, ms), ms, callback };
    this.scheduled.add(entry);
    for (const waiter of [...this.waiters]) waiter();
    return entry;
  }

  clearTimeout(handle: TimerHandle): void {
    this.scheduled.delete(handle as Scheduled);
  }

  /** The delays of the timers armed and not fired yet, in the order they fall due. */
  pending(): number[] {
    return [...this.scheduled].sort((a, b) => a.due - b.due).map((s) => s.ms);
  }

  /**
   * Moves time on by `ms`, firing every timer due by then in order; after each, promise callbacks and I/O
   * already arrived get a turn, so what a callback starts can arm the next timer.
   */
  async advance(ms: number): Promise<void> {
    const target = this.now + ms;
    for (;;) {
      const next = [...this.scheduled].filter((s) => s.due <= target).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.scheduled.delete(next);
      this.now = next.due;
      next.callback();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.now = target;
  }

  /** Resolves once a timer of `ms` is armed (one already armed counts); fails after WAIT_CAP_MS. */
  armed(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const cap = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${ms} ms timer was armed within ${WAIT_CAP_MS} ms (armed: ${this.pending().join(', ')})`));
      }, WAIT_CAP_MS);
      const check = () => {
        if (![...this.scheduled].some((s) => s.ms === ms)) return;
        this.waiters.delete(check);
        clearTimeout(cap);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }
}
