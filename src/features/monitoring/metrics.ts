import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ENVIRONMENTS, type Environment } from '../../shared/actor.ts';
import { DEFAULT_MONITOR_PERIOD_MS, registerEventLoopDelay } from './event-loop-delay.ts';

export interface WebhookBacklog {
  readonly pending: number;
  readonly oldestAgeSeconds: number;
}

/** Counts of live shifts per environment. */
export type LiveShiftCounts = Readonly<Partial<Record<Environment, number>>>;

export interface MetricsDeps {
  readonly liveShifts: () => Promise<LiveShiftCounts>;
  /**
   * The webhook outbox's deliveries not yet acknowledged, and how long the oldest has waited since its event (0
   * when none); read once per scrape for both gauges, which are left out when the service has no such outbox.
   */
  readonly webhookBacklog?: () => Promise<WebhookBacklog>;
  /**
   * This instance's webhook delivery attempts since it started, by result (`delivered`, `retrying`, `failed`);
   * the counter is left out when the instance runs no dispatcher.
   */
  readonly webhookAttempts?: () => Readonly<Record<string, number>>;
  /**
   * The database failures this instance met since it started, by kind (`connect`, `connection_lost`, `timeout`,
   * `server_shutdown`); the counter is left out when absent.
   */
  readonly databaseErrors?: () => Readonly<Record<string, number>>;
  /** Rank changes whose sync to the Roblox group is pending, and those that failed (docs/ROBLOX.md). */
  readonly rankSyncBacklog?: () => Promise<{ readonly pending: number; readonly failed: number }>;
  /** Called when a gauge cannot be read at scrape time (the scrape still answers, without that gauge's value). */
  readonly onCollectError?: (metric: string, error: unknown) => void;
}

/** Request labels: the route pattern (never the raw URL), so the number of series stays bounded. */
export interface RequestLabels {
  readonly method: string;
  readonly route: string;
  readonly status: number;
}

/** Seconds; spans the fast paths (a cached read, ~1 ms) and the slow ones (a report on a big workspace). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics {
  readonly contentType: string;
  observeRequest(labels: RequestLabels, seconds: number): void;
  /** The exposition text (Prometheus text format). */
  render(): Promise<string>;
}

/**
 * `read`, shared by the callers that ask while a read is under way: the gauges of one scrape are collected at
 * once, so two gauges of the same row cost one query.
 */
function oneReadAtATime<T>(read: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  return () =>
    (current ??= read().finally(() => {
      current = undefined;
    }));
}

/**
 * One registry per app instance (never prom-client's global one): several apps in one process each count their
 * own requests.
 */
export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: DEFAULT_MONITOR_PERIOD_MS });
  const loop = registerEventLoopDelay(registry);
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status.',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const failed = (metric: string, error: unknown) => deps.onCollectError?.(metric, error);

  new Gauge({
    name: 'workspace_gateway_active_shifts',
    help: 'Active shifts not yet timed out, by environment.',
    labelNames: ['environment'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const counts = await deps.liveShifts();
        for (const environment of ENVIRONMENTS) this.set({ environment }, counts[environment] ?? 0);
      } catch (error) {
        failed('workspace_gateway_active_shifts', error);
      }
    },
  });

  /** A gauge of one value read at scrape time; when the read fails, the gauge has no value in that scrape. */
  const valueGauge = (name: string, help: string, read: () => Promise<number>) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        try {
          this.set(await read());
        } catch (error) {
          this.reset();
          failed(name, error);
        }
      },
    });

  if (deps.webhookBacklog) {
    const backlog = oneReadAtATime(deps.webhookBacklog);
    valueGauge(
      'workspace_gateway_pending_webhook_deliveries',
      'Webhook deliveries waiting for a first or a further attempt.',
      async () => (await backlog()).pending,
    );
    valueGauge(
      'workspace_gateway_oldest_pending_webhook_delivery_seconds',
      'Seconds the oldest pending webhook delivery has waited since its event (0 when none is pending).',
      async () => (await backlog()).oldestAgeSeconds,
    );
  }

  if (deps.rankSyncBacklog) {
    const ranks = oneReadAtATime(deps.rankSyncBacklog);
    valueGauge(
      'workspace_gateway_pending_rank_changes',
      'Rank changes waiting to be applied to the Roblox group (first try or a retry).',
      async () => (await ranks()).pending,
    );
    valueGauge(
      'workspace_gateway_failed_rank_changes',
      'Rank changes the Roblox group never took (refused, out of retries, or erased).',
      async () => (await ranks()).failed,
    );
  }

  /** A counter kept elsewhere (by the instance's dispatcher or store), read at scrape time. */
  const countedElsewhere = (name: string, help: string, label: string, read: () => Readonly<Record<string, number>>) =>
    new Counter({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      collect() {
        this.reset();
        for (const [value, count] of Object.entries(read())) this.inc({ [label]: value }, count);
      },
    });

  if (deps.databaseErrors) {
    countedElsewhere(
      'workspace_gateway_database_errors_total',
      'Failures meeting the database since this instance started, by kind: connect (no connection could be ' +
        'opened), connection_lost (an open connection broke), timeout (a statement, lock wait or idle ' +
        'transaction ran out of time), server_shutdown (the server was going down or starting).',
      'kind',
      deps.databaseErrors,
    );
  }

  if (deps.webhookAttempts) {
    countedElsewhere(
      'workspace_gateway_webhook_attempts_total',
      'Webhook delivery attempts made by this instance, by result: delivered, retrying (failed, to be tried ' +
        'again) and failed (failed, no more tries).',
      'result',
      deps.webhookAttempts,
    );
  }

  return {
    contentType: registry.contentType,
    observeRequest({ method, route, status }, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
      loop.touch();
    },
    render: () => registry.metrics(),
  };
}
