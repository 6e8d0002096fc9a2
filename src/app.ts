import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Clock } from './shared/clock.ts';
import type { Config } from './shared/config.ts';
import type { Store } from './db/connect.ts';
import { newRequestId } from './shared/ids.ts';
import { createAuthenticator } from './http/authentication.ts';
import {
  answerClientError,
  connectionOptions,
  registerConnectAnswer,
  registerExpectationHandler,
  registerUpgradeAnswer,
} from './http/connections.ts';
import { frameworkErrorHandler, registerErrorHandling } from './http/errors.ts';
import { errorResponse, writePipeline } from './http/write-pipeline.ts';
import { createIdempotency } from './idempotency/index.ts';
import { registerCors } from './http/cors.ts';
import { loggerOptions } from './http/logging.ts';
import { registerOpenApi, serverUrl } from './http/openapi.ts';
import { forwardedBaseUrl } from './http/proxy.ts';
import { registerReferencePage } from './http/reference-page.ts';
import { registerConsolePage } from './http/console-page.ts';
import { connectCounterStore, registerRateLimit } from './http/rate-limit.ts';
import { createFailureLimiter } from './http/failure-limit.ts';
import { registerRequestMetrics } from './http/request-metrics.ts';
import { cachedKeyRead, registerRouteAuth } from './http/route-auth.ts';
import { serializerFactory } from './http/serialization.ts';
import { BODY_LIMIT_BYTES, registerJsonParser, registerValidators } from './http/validation.ts';
import { applicationRoutes } from './features/applications/routes.ts';
import { createApplicationService } from './features/applications/service.ts';
import { queueRoutes } from './features/applications/queue/routes.ts';
import { createQueueService } from './features/applications/queue/service.ts';
import { formRoutes } from './features/applications/forms/routes.ts';
import { intakeRoutes } from './features/applications/intake/routes.ts';
import { createIntakeService } from './features/applications/intake/service.ts';
import { integrationRoutes } from './features/integration/routes.ts';
import { createIntegrationService } from './features/integration/service.ts';
import { metadataRoutes } from './features/metadata/routes.ts';
import { createMetrics, type WebhookBacklog } from './features/monitoring/metrics.ts';
import { createReadinessCheck } from './features/monitoring/readiness.ts';
import { operationsRoutes } from './features/monitoring/routes.ts';
import { reportRoutes } from './features/activity/reports/routes.ts';
import { rosterRoutes } from './features/activity/roster/routes.ts';
import { createRosterService } from './features/activity/roster/service.ts';
import { createReportService } from './features/activity/reports/service.ts';
import { shiftBatchRoutes } from './features/activity/shifts/batch-routes.ts';
import { pendingBacklog } from './features/webhooks/repository.ts';
import { createShiftBatchService } from './features/activity/shifts/batch-service.ts';
import { shiftRoutes } from './features/activity/shifts/routes.ts';
import { createLiveShiftCounter } from './features/activity/shifts/live-count.ts';
import { createShiftService } from './features/activity/shifts/service.ts';
import { staffRoutes } from './features/staff/routes.ts';
import { createNoticeDecisionService } from './features/time-off/decision-service.ts';
import { noticeRoutes } from './features/time-off/routes.ts';
import { createNoticeService } from './features/time-off/service.ts';
import { createStaffService } from './features/staff/service.ts';
import { rankRoutes } from './features/ranks/routes.ts';
import { createRankService } from './features/ranks/service.ts';
import { syncBacklog } from './features/ranks/sync/repository.ts';
import { createErasureRequestService } from './features/roblox/erasure-requests.ts';
import { robloxRoutes } from './features/roblox/routes.ts';
import { systemTimer } from './features/webhooks/timer.ts';
import { webhookDocument, WEBHOOKS_TAG } from './openapi/webhook-events.ts';
import { consoleRoutes, SIGN_IN_FAILURES_MAX, SIGN_IN_FAILURES_WINDOW_SECONDS } from './features/console/routes.ts';
import { createConsoleService } from './features/console/service.ts';
import { discordRoutes } from './features/discord/routes.ts';
import { createDiscordService } from './features/discord/service.ts';

export interface AppDeps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  /** Logger options or instance; defaults to pino at the configured level with credential redaction. */
  readonly logger?: FastifyServerOptions['logger'];
  readonly loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** The webhook backlog, for the metrics gauges (default: the outbox's pending deliveries). */
  readonly webhookBacklog?: () => Promise<WebhookBacklog>;
  /** The instance's webhook delivery attempts by result, for the metrics counter (absent: no counter). */
  readonly webhookAttempts?: () => Readonly<Record<string, number>>;
  /** The database failures the instance met, by kind, for the metrics counter (absent: no counter). */
  readonly databaseErrors?: () => Readonly<Record<string, number>>;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store, clock } = deps;
  const app = Fastify({
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : { logger: deps.logger ?? loggerOptions(config.logLevel) }),
    genReqId: () => newRequestId(),
    frameworkErrors: frameworkErrorHandler,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // While closing, a request still arriving on an open connection is answered as usual (with Connection:
    // close): Fastify's own 503 would bypass the hooks that give every response its envelope and X-Request-Id.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Only the listed proxies' X-Forwarded-* headers are believed (request.ip, request.protocol, request.host).
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    forceCloseConnections: 'idle',
    ...connectionOptions(config),
    clientErrorHandler: answerClientError,
    schemaController: { compilersFactory: { buildSerializer: serializerFactory() } },
  });
  registerExpectationHandler(app);
  registerConnectAnswer(app);
  registerUpgradeAnswer(app);
  // Closing closes the connections idle at that moment; a request still in flight would leave its keep-alive
  // connection open after its answer, holding the shutdown until the client lets go (or KEEP_ALIVE_TIMEOUT_MS).
  // So once closing, every answer closes its connection; the server's stop() bounds the rest (shutdown deadline).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  // First: its hook must run before any other can answer (errors included), so every answer carries its headers.
  await registerCors(app, config.corsOrigins);
  const metrics = createMetrics({
    liveShifts: createLiveShiftCounter({ db: store.db, clock, config }),
    webhookBacklog:
      deps.webhookBacklog ??
      (async () => {
        const { pending, oldestCreatedAt } = await pendingBacklog(store.db);
        const oldestAgeSeconds = oldestCreatedAt === null ? 0 : Math.max(0, clock.now() - oldestCreatedAt) / 1000;
        return { pending, oldestAgeSeconds };
      }),
    ...(deps.webhookAttempts ? { webhookAttempts: deps.webhookAttempts } : {}),
    ...(deps.databaseErrors ? { databaseErrors: deps.databaseErrors } : {}),
    rankSyncBacklog: () => syncBacklog(store.db),
    onCollectError: (metric, err) => app.log.warn({ err, metric }, 'metric not collected'),
  });
  registerRequestMetrics(app, metrics);
  registerValidators(app);
  registerJsonParser(app);
  registerErrorHandling(app);
  const listeningUrl = () => serverUrl(config.publicBaseUrl, app.server.listening ? app.server.address() : null, config);
  // As the OpenAPI document's `servers`: PUBLIC_BASE_URL, else the address a trusted proxy reports, else ours.
  const publicUrl = (request: FastifyRequest) =>
    config.publicBaseUrl ?? (config.trustProxy.length > 0 ? forwardedBaseUrl(request) : undefined) ?? listeningUrl();
  await registerOpenApi(app, {
    serverUrl: listeningUrl,
    webhooks: { tag: WEBHOOKS_TAG, items: webhookDocument() },
  });
  const counters = await connectCounterStore(app, config);
  const rateLimiter = await registerRateLimit(app, { config, clock, redis: counters });
  const confirmKey = registerRouteAuth(app, createAuthenticator({ db: store.db, clock, config }), rateLimiter);

  const db = store.db;
  const writes = writePipeline({ idempotency: createIdempotency({ store, clock, errorResponse }), confirmKey });
  await app.register(
    metadataRoutes({
      clock,
      config,
      // PUBLIC_BASE_URL wins; else, behind a trusted proxy, the document names the address the client used.
      ...(config.publicBaseUrl === undefined && config.trustProxy.length > 0 ? { requestBaseUrl: forwardedBaseUrl } : {}),
    }),
  );
  await app.register(
    operationsRoutes({ readiness: createReadinessCheck({ store }), metrics, metricsToken: config.metricsToken }),
  );
  await registerReferencePage(app);
  await registerConsolePage(app);
  await app.register(integrationRoutes(createIntegrationService({ db })));
  await app.register(staffRoutes(createStaffService({ db })));
  await app.register(
    noticeRoutes({
      service: createNoticeService({ db, clock }),
      noticeDecisions: createNoticeDecisionService({ db, clock }),
      writes,
    }),
  );
  await app.register(rankRoutes({ service: createRankService({ db, clock }), writes }));
  await app.register(
    robloxRoutes({ erasures: createErasureRequestService({ store, clock, timer: systemTimer, log: app.log }) }),
  );
  await app.register(
    reportRoutes({
      service: createReportService({ db, read: (job) => store.read(job), clock, config }),
      reads: cachedKeyRead({ confirmKey, clock }),
    }),
  );
  await app.register(rosterRoutes({ service: createRosterService({ db, read: (job) => store.read(job), clock, config }) }));
  await app.register(shiftRoutes({ service: createShiftService({ store, clock, config }), writes }));
  await app.register(shiftBatchRoutes(createShiftBatchService({ clock, config }), writes));
  await app.register(applicationRoutes({ service: createApplicationService({ clock }), writes }));
  await app.register(queueRoutes({ service: createQueueService({ db }) }));
  await app.register(formRoutes({ db }));
  await app.register(intakeRoutes({ service: createIntakeService({ db, clock }), writes }));
  await app.register(
    consoleRoutes({
      service: createConsoleService({ store, clock, config }),
      failures: createFailureLimiter({
        name: 'console-sign-in',
        max: SIGN_IN_FAILURES_MAX,
        windowSeconds: SIGN_IN_FAILURES_WINDOW_SECONDS,
        clock,
        redis: counters,
      }),
      baseUrl: publicUrl,
    }),
  );
  await app.register(
    discordRoutes({
      service: createDiscordService({ store, clock, config, idempotency: createIdempotency({ store, clock, errorResponse }) }),
      baseUrl: publicUrl,
    }),
  );

  return app;
}
