import type { Progress } from '../shared/progress.ts';

export interface ProgressOptions {
  readonly now?: () => number;
  readonly write?: (text: string) => void;
  /** Nothing is printed before the run has taken this long: a quick run stays silent. */
  readonly afterMs?: number;
  /** At most one line per this interval; also how often the last step is repeated while a step lasts. */
  readonly everyMs?: number;
  /** Repeats the last step on a timer (off in tests that drive `now` themselves). */
  readonly timer?: boolean;
}

export interface ProgressPrinter {
  readonly report: Progress;
  /** Stops the timer; when anything was printed, ends with the total time. */
  stop(): void;
}

/**
 * Progress of a command on stderr, `<command>: <step> (<n> s)`, once the run has taken more than a second, then at
 * most one line a second; stdout keeps only the command's JSON result.
 */
export function progressOnStderr(command: string, options: ProgressOptions = {}): ProgressPrinter {
  const now = options.now ?? Date.now;
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  const afterMs = options.afterMs ?? 1000;
  const everyMs = options.everyMs ?? 1000;
  const start = now();
  let latest: string | undefined;
  let lastPrinted = Number.NEGATIVE_INFINITY;
  let printed = false;

  const seconds = (t: number) => ((t - start) / 1000).toFixed(1);
  function maybePrint(): void {
    const t = now();
    if (latest === undefined || t - start < afterMs || t - lastPrinted < everyMs) return;
    write(`${command}: ${latest} (${seconds(t)} s)\n`);
    lastPrinted = t;
    printed = true;
  }
  // better-sqlite3 runs statements synchronously, so the timer only fires between steps; a report does too.
  const timer = options.timer === false ? undefined : setInterval(maybePrint, everyMs);
  timer?.unref();

  return {
    report(step) {
      latest = step;
      maybePrint();
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      if (printed) write(`${command}: done in ${seconds(now())} s\n`);
    },
  };
}
