import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/** How often the event loop is sampled while the gateway serves requests. */
const SAMPLE_EVERY_MS = 10;
/** How long after its last answered request the gateway stops sampling. */
const IDLE_AFTER_MS = 1_000;

/** The delays sampled since the last read, in seconds (all 0 when none was: the gateway was idle). */
export interface EventLoopDelays {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly stddev: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

const NONE: EventLoopDelays = { min: 0, max: 0, mean: 0, stddev: 0, p50: 0, p90: 0, p99: 0 };

/**
 * The event loop's delay, sampled every SAMPLE_EVERY_MS while requests are being answered. Sampling wakes the
 * loop each time: an idle gateway sampling all the time spent more CPU on it than on everything else it does while
 * idle (docs/BENCHMARKS.md, "Smaller choices"). So it stops IDLE_AFTER_MS after the last answer and starts again
 * with the next one; a stall of a gateway that answers nothing delays no one.
 */
export class EventLoopDelayMonitor {
  private readonly histogram: ELDHistogram;
  private sampling = false;
  private lastActiveAt = 0;
  private idleCheck: NodeJS.Timeout | undefined;
  private readonly idleAfterMs: number;

  constructor(sampleEveryMs = SAMPLE_EVERY_MS, idleAfterMs = IDLE_AFTER_MS) {
    this.histogram = monitorEventLoopDelay({ resolution: sampleEveryMs });
    this.idleAfterMs = idleAfterMs;
  }

  /** Whether the loop is being sampled now. */
  get active(): boolean {
    return this.sampling;
  }

  /** A request was answered: sample (again) until IDLE_AFTER_MS after the last one. */
  touch(): void {
    this.lastActiveAt = performance.now();
    if (this.sampling) return;
    this.sampling = true;
    this.histogram.enable();
    this.checkIdleIn(this.idleAfterMs);
  }

  private checkIdleIn(ms: number): void {
    this.idleCheck = setTimeout(() => {
      const idleMs = performance.now() - this.lastActiveAt;
      if (idleMs < this.idleAfterMs) return this.checkIdleIn(this.idleAfterMs - idleMs);
      this.stop();
    }, ms);
    this.idleCheck.unref();
  }

  /** The delays sampled since the previous read; starts the next period. */
  read(): EventLoopDelays {
    const h = this.histogram;
    const delays =
      h.count === 0
        ? NONE
        : {
            min: h.min / 1e9,
            max: h.max / 1e9,
            mean: h.mean / 1e9,
            stddev: h.stddev / 1e9,
            p50: h.percentile(50) / 1e9,
            p90: h.percentile(90) / 1e9,
            p99: h.percentile(99) / 1e9,
          };
    h.reset();
    return delays;
  }

  stop(): void {
    clearTimeout(this.idleCheck);
    this.sampling = false;
    this.histogram.disable();
  }
}

/** prom-client's event-loop gauges, which the gateway feeds from its own monitor (same names, same meaning). */
const DELAY_GAUGES: ReadonlyArray<readonly [keyof EventLoopDelays, string, string]> = [
  ['min', 'nodejs_eventloop_lag_min_seconds', 'The minimum recorded event loop delay.'],
  ['max', 'nodejs_eventloop_lag_max_seconds', 'The maximum recorded event loop delay.'],
  ['mean', 'nodejs_eventloop_lag_mean_seconds', 'The mean of the recorded event loop delays.'],
  ['stddev', 'nodejs_eventloop_lag_stddev_seconds', 'The standard deviation of the recorded event loop delays.'],
  ['p50', 'nodejs_eventloop_lag_p50_seconds', 'The 50th percentile of the recorded event loop delays.'],
  ['p90', 'nodejs_eventloop_lag_p90_seconds', 'The 90th percentile of the recorded event loop delays.'],
  ['p99', 'nodejs_eventloop_lag_p99_seconds', 'The 99th percentile of the recorded event loop delays.'],
];
const LAG = 'nodejs_eventloop_lag_seconds';

/**
 * A sampling period for prom-client's own event-loop monitor that keeps it from waking the loop (its gauges are
 * replaced by `registerEventLoopDelay`'s); prom-client has no switch to leave the monitor out.
 */
export const DEFAULT_MONITOR_PERIOD_MS = 3_600_000;

/**
 * Replaces the default metrics' event-loop gauges in `registry` by gauges of the same names read from a monitor
 * that samples only while requests are answered (`touch` it on each). `nodejs_eventloop_lag_seconds` stays what
 * prom-client makes it: how long a callback queued at scrape time waited.
 */
export function registerEventLoopDelay(registry: Registry): EventLoopDelayMonitor {
  const monitor = new EventLoopDelayMonitor();
  for (const name of [LAG, ...DELAY_GAUGES.map(([, gauge]) => gauge)]) registry.removeSingleMetric(name);
  const gauges = DELAY_GAUGES.map(([field, name, help]) => [field, new Gauge({ name, help, registers: [] })] as const);
  // Registered before them, this gauge's collect sets them all (one read of the monitor per scrape) before they
  // are read: the registry collects its metrics in order, each up to its first wait.
  new Gauge({
    name: LAG,
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    async collect() {
      const delays = monitor.read();
      for (const [field, gauge] of gauges) gauge.set(delays[field]);
      const queuedAt = performance.now();
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.set((performance.now() - queuedAt) / 1000);
    },
  });
  for (const [, gauge] of gauges) registry.registerMetric(gauge);
  return monitor;
}
