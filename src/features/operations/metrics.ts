import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ENVIRONMENTS, type Environment } from '../../actor.js';

/** Counts of live shifts per environment. */
export type LiveShiftCounts = Readonly<Partial<Record<Environment, number>>>;

export interface MetricsDeps {
  readonly liveShifts: () => Promise<LiveShiftCounts>;
  /** Webhook deliveries not yet acknowledged; the gauge is left out when the service has no such outbox. */
  readonly pendingWebhookDeliveries?: () => Promise<number>;
  /** Seconds the oldest of those has waited since its event (0 when none); left out with the gauge above. */
  readonly oldestPendingWebhookDeliverySeconds?: () => Promise<number>;
  /**
   * This instance's webhook delivery attempts since it started, by result (`delivered`, `retrying`, `failed`);
   * the counter is left out when the instance runs no dispatcher.
   */
  readonly webhookAttempts?: () => Readonly<Record<string, number>>;
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
 * One registry per app instance (never prom-client's global one): several apps in one process each count their
 * own requests.
 */
export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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

  const pending = deps.pendingWebhookDeliveries;
  if (pending) {
    new Gauge({
      name: 'workspace_gateway_pending_webhook_deliveries',
      help: 'Webhook deliveries waiting for a first or a further attempt.',
      registers: [registry],
      async collect() {
        try {
          this.set(await pending());
        } catch (error) {
          this.reset();
          failed('workspace_gateway_pending_webhook_deliveries', error);
        }
      },
    });
  }

  const oldest = deps.oldestPendingWebhookDeliverySeconds;
  if (pending && oldest) {
    new Gauge({
      name: 'workspace_gateway_oldest_pending_webhook_delivery_seconds',
      help: 'Seconds the oldest pending webhook delivery has waited since its event (0 when none is pending).',
      registers: [registry],
      async collect() {
        try {
          this.set(await oldest());
        } catch (error) {
          this.reset();
          failed('workspace_gateway_oldest_pending_webhook_delivery_seconds', error);
        }
      },
    });
  }

  const attempts = deps.webhookAttempts;
  if (attempts) {
    new Counter({
      name: 'workspace_gateway_webhook_attempts_total',
      help:
        'Webhook delivery attempts made by this instance, by result: delivered, retrying (failed, to be tried ' +
        'again) and failed (failed, no more tries).',
      labelNames: ['result'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [result, count] of Object.entries(attempts())) this.inc({ result }, count);
      },
    });
  }

  return {
    contentType: registry.contentType,
    observeRequest({ method, route, status }, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    render: () => registry.metrics(),
  };
}
