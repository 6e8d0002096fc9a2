import type { BackgroundService, BackgroundThread, RunningService } from '../background/thread.ts';
import type { CheckpointerData } from './checkpointer-worker.ts';
import type { GroupCommit } from './group-commit.ts';

/** The checkpoints' service on the background thread: checkpointer-worker.ts. */
export const CHECKPOINTER: BackgroundService<CheckpointerData> = {
  module: new URL('./checkpointer-worker.ts', import.meta.url).href,
  entry: 'serveCheckpoints',
};

/** The longest the writes stay held for the checkpointer, whatever happens to it. */
const MAX_HOLD_MS = 2_000;
/** How long stopping waits for the checkpointer to close its connection before it closes the channel anyway. */
const STOP_WAIT_MS = 2_000;

/**
 * When its thread stops under it (another service on the thread failed, say), the checkpointer starts again after
 * `firstMs`, doubled after each start that lasted less than `resetAfterMs`, up to `maxMs`: a failure of its own
 * never starts threads in a loop, and meanwhile the store's fallback threshold keeps the log bounded.
 */
export interface CheckpointerRestarts {
  readonly firstMs: number;
  readonly maxMs: number;
  readonly resetAfterMs: number;
}
const RESTARTS: CheckpointerRestarts = { firstMs: 1_000, maxMs: 60_000, resetAfterMs: 60_000 };

/**
 * The serving thread's side of the checkpointer (checkpointer-worker.ts runs on the background thread): holds the
 * group commit's writes while the checkpointer copies the end of the log, lets them go when it says so (or after
 * MAX_HOLD_MS), and starts it again if its thread stops. Returns what stops it.
 */
export function startCheckpointer(
  data: CheckpointerData,
  writer: GroupCommit,
  thread: BackgroundThread,
  restarts: CheckpointerRestarts = RESTARTS,
): () => Promise<void> {
  let holdLimit: NodeJS.Timeout | undefined;
  const release = (): void => {
    clearTimeout(holdLimit);
    writer.release();
  };
  let service: RunningService | undefined;
  let onStopped: (() => void) | undefined;
  let stopping = false;
  let restart: NodeJS.Timeout | undefined;
  let delayMs = restarts.firstMs;

  function start(): void {
    const startedAt = performance.now();
    const running = thread.start(CHECKPOINTER, data, {
      onMessage(message) {
        if (message === 'hold') {
          holdLimit = setTimeout(release, MAX_HOLD_MS);
          void writer.hold().then(() => running.port.postMessage('held'));
        } else if (message === 'release') {
          release();
        } else if (message === 'stopped') {
          onStopped?.();
        }
      },
      onExit() {
        release();
        if (service === running) service = undefined;
        if (stopping) return;
        if (performance.now() - startedAt >= restarts.resetAfterMs) delayMs = restarts.firstMs;
        restart = setTimeout(start, delayMs);
        restart.unref();
        delayMs = Math.min(delayMs * 2, restarts.maxMs);
      },
    });
    service = running;
  }
  start();

  return async () => {
    stopping = true;
    clearTimeout(restart);
    const running = service;
    if (running) {
      let wait: NodeJS.Timeout | undefined;
      const stopped = new Promise<void>((resolve) => {
        onStopped = resolve;
        wait = setTimeout(resolve, STOP_WAIT_MS);
      });
      running.port.postMessage('stop');
      // Its connection is closed before the store's own (or it gave no answer in time, or its thread is gone).
      await Promise.race([stopped, running.closed]);
      clearTimeout(wait);
      await running.close();
    }
    release();
  };
}
