/**
 * What webhook delivery waits on: the dispatcher's pauses between claims, before recording results and while
 * stopping, and a request's deadlines. A serving process uses the system's timers; tests pass a timer they move
 * themselves, so nothing that waits has to be waited for.
 */
export interface Timer {
  /** Calls `callback` once, `ms` from now, unless the handle is cleared first. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Opaque to its users: only the timer that returned it reads it. */
export type TimerHandle = object;

export const systemTimer: Timer = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A wait on a timer that can be cut short: the dispatcher's pause between two claims. */
export class Pause {
  private readonly timer: Timer;
  private current: { readonly handle: TimerHandle; readonly end: () => void; readonly wakeable: boolean } | null = null;

  constructor(timer: Timer) {
    this.timer = timer;
  }

  /** Resolves after `ms`, or sooner on `wake()` (only when `wakeable`) or `interrupt()`. */
  wait(ms: number, wakeable: boolean): Promise<void> {
    this.interrupt();
    return new Promise((resolve) => {
      const end = () => {
        if (this.current?.end === end) {
          this.timer.clearTimeout(this.current.handle);
          this.current = null;
        }
        resolve();
      };
      this.current = { handle: this.timer.setTimeout(end, ms), end, wakeable };
    });
  }

  /** Ends a wakeable wait now: something the waiter waits for may have happened. */
  wake(): void {
    if (this.current?.wakeable) this.current.end();
  }

  /** Ends any wait now (stopping). */
  interrupt(): void {
    this.current?.end();
  }
}
