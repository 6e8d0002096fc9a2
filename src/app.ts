import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Store } from './db/connect.js';
import { newRequestId } from './ids.js';
import { createAuthenticator } from './http/authentication.js';
import { BODY_LIMIT_BYTES, registerJsonParser } from './http/content-type.js';
import { frameworkErrorHandler, registerErrorHandling } from './http/errors.js';
import { createIdempotency } from './http/idempotency.js';
import { loggerOptions } from './http/logging.js';
import { registerOpenApi } from './http/openapi.js';
import { createRateLimiter } from './http/rate-limit.js';
import { registerRouteAuth } from './http/route-auth.js';
import { registerValidators } from './http/validation.js';
import { applicationRoutes } from './features/applications/routes.js';
import { createApplicationService } from './features/applications/service.js';
import { integrationRoutes } from './features/integration/routes.js';
import { createIntegrationService } from './features/integration/service.js';
import { metadataRoutes } from './features/metadata/routes.js';
import { reportRoutes } from './features/reports/routes.js';
import { createReportService } from './features/reports/service.js';
import { shiftRoutes } from './features/shifts/routes.js';
import { createShiftService } from './features/shifts/service.js';
import { staffRoutes } from './features/staff/routes.js';
import { createStaffService } from './features/staff/service.js';

export interface AppDeps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  /** Logger options or instance; defaults to pino at the configured level with credential redaction. */
  readonly logger?: FastifyServerOptions['logger'];
  readonly loggerInstance?: FastifyServerOptions['loggerInstance'];
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
    forceCloseConnections: 'idle',
  });
  // Closing closes the connections idle at that moment; a request still in flight would leave its keep-alive
  // connection open after its answer, holding the shutdown until the client lets go (or keepAliveTimeout, 72 s).
  // So once closing, every answer closes its connection.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  registerValidators(app);
  registerJsonParser(app);
  registerErrorHandling(app);
  await registerOpenApi(app);
  const rateLimiter = createRateLimiter({ config, clock, log: app.log });
  if (rateLimiter) {
    await rateLimiter.ready();
    app.addHook('onClose', () => rateLimiter.close());
  }
  registerRouteAuth(app, createAuthenticator({ db: store.db, clock, config }), rateLimiter);

  const db = store.db;
  const idempotency = createIdempotency({ db, clock, dialect: store.dialect, direct: store.direct });
  await app.register(metadataRoutes({ clock, config }));
  await app.register(integrationRoutes(createIntegrationService({ db })));
  await app.register(staffRoutes(createStaffService({ db })));
  await app.register(reportRoutes(createReportService({ db, dialect: store.dialect, clock, config })));
  await app.register(shiftRoutes({ service: createShiftService({ db, clock, config }), idempotency }));
  await app.register(applicationRoutes({ service: createApplicationService({ clock }), idempotency }));

  return app;
}
