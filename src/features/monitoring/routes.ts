import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, unauthenticated } from '../../shared/errors.ts';
import { errorResponses } from '../../http/openapi.ts';
import type { RouteApp } from '../../http/route-app.ts';
import type { Metrics } from './metrics.ts';
import type { ReadinessCheck } from './readiness.ts';

const ReadySchema = Type.Object(
  { status: Type.Literal('ready') },
  { description: 'Ready: the database answers and no migration is pending.', examples: [{ status: 'ready' }] },
);

const ExpositionSchema = Type.String({
  description: 'Prometheus text exposition format (version 0.0.4).',
});

const EXPOSITION_EXAMPLE =
  '# HELP workspace_gateway_active_shifts Active shifts not yet timed out.\n' +
  '# TYPE workspace_gateway_active_shifts gauge\n' +
  'workspace_gateway_active_shifts{environment="live"} 42\n';

export interface OperationsDeps {
  readonly readiness: ReadinessCheck;
  readonly metrics: Metrics;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  readonly metricsToken: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares digests, not the strings: the time taken says nothing about the token's length or content. */
function tokenMatches(expected: Buffer, authorization: string | string[] | undefined): boolean {
  if (typeof authorization !== 'string') return false;
  const match = /^Bearer (\S+)$/i.exec(authorization);
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
}

export function operationsRoutes({ readiness, metrics, metricsToken }: OperationsDeps) {
  const expected = metricsToken === undefined ? null : digest(metricsToken);
  return async function register(app: RouteApp): Promise<void> {
    app.get(
      '/ready',
      {
        config: { auth: { kind: 'none' } },
        schema: {
          operationId: 'getReadiness',
          summary: 'Readiness: the database answers and no migration is pending',
          description:
            'For load balancers and orchestrators: 200 while this instance can serve, 503 `not_ready` while the ' +
            'database does not answer (within 2 s) or a migration this build needs is not applied. Unlike ' +
            '`/health` (liveness), it touches the database.',
          tags: ['metadata'],
          response: {
            200: ReadySchema,
            503: {
              ...errorResponses({ 503: ['not_ready'] })[503],
              description: 'Not ready (not_ready): the database does not answer or migrations are pending.',
            },
          },
        },
      },
      async (_request, reply) => {
        const state = await readiness();
        if (state.ready) return { status: 'ready' as const };
        if (state.reason === 'migrations_pending') {
          throw new AppError('not_ready', 'Database migrations are pending.', {
            reason: state.reason,
            pending: [...state.pending],
          });
        }
        reply.header('retry-after', '5');
        throw new AppError('not_ready', 'The database does not answer.', { reason: state.reason });
      },
    );

    app.get(
      '/metrics',
      {
        config: { auth: { kind: 'none' } },
        schema: {
          operationId: 'getMetrics',
          summary: 'Prometheus metrics',
          description:
            'Process and runtime metrics, `http_requests_total` and `http_request_duration_seconds` by method, route ' +
            'pattern and status, the gauges `workspace_gateway_active_shifts` (by environment), ' +
            '`workspace_gateway_pending_webhook_deliveries` and ' +
            '`workspace_gateway_oldest_pending_webhook_delivery_seconds`, and the counter ' +
            '`workspace_gateway_webhook_attempts_total` (this instance\'s delivery attempts by `result`: ' +
            '`delivered`, `retrying`, `failed`). When the gateway is configured with a metrics token ' +
            '(`METRICS_TOKEN`), it requires `Authorization: Bearer <that token>` (401 otherwise); it never accepts ' +
            'an API key or a dashboard token.',
          tags: ['metadata'],
          response: {
            200: {
              description: 'The metrics, in the Prometheus text format.',
              content: { 'text/plain': { schema: ExpositionSchema, example: EXPOSITION_EXAMPLE } },
            },
            ...errorResponses({ 401: ['unauthenticated'] }),
          },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        if (expected && !tokenMatches(expected, request.headers.authorization)) {
          throw unauthenticated('The metrics token is missing or wrong.');
        }
        const text = await metrics.render();
        return reply.type(metrics.contentType).send(text);
      },
    );
  };
}
