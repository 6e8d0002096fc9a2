import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Request headers a browser may send cross-origin (besides the CORS-safelisted ones). */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Correlation-Id',
  'X-Service-Workspace-Id',
  'X-Chat-Guild-Id',
  'X-Acting-Chat-User-Id',
];

/** Response headers a browser script may read. */
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Idempotent-Replayed',
  'Allow',
];

/**
 * CORS for the listed origins only (none: not registered at all, so no response carries CORS headers). Registered
 * before every other hook, so that errors (401, 404, 429…) carry the headers too and a browser script can read them.
 * A preflight from a listed origin is answered 204; any other OPTIONS request gets the usual 404/405.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    // A bare OPTIONS request (no Origin or no Access-Control-Request-Method) is no preflight: it falls through to
    // the usual 404/405 in the error envelope instead of the plugin's plain-text 400.
    strictPreflight: false,
    hideOptionsRoute: true,
  });
}
