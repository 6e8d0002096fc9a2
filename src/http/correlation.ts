/**
 * The correlation id every answer with `meta` carries: `X-Correlation-Id` as sent (400 when malformed), else the
 * request's id. Read on authenticated routes and on routes that declare `correlationId` (auth/route-auth.ts).
 */
import type { FastifyInstance } from 'fastify';
import { headerValue } from '../auth/route-auth.ts';
import { AppError } from '../shared/errors.ts';
import { CORRELATION_ID_RE } from './headers.ts';

declare module 'fastify' {
  interface FastifyRequest {
    correlationId: string;
  }
}

export function registerCorrelationId(app: FastifyInstance): void {
  app.decorateRequest('correlationId', '');
  app.addHook('preValidation', async (request) => {
    const auth = request.routeOptions.config.auth;
    if (!auth || (auth.kind === 'none' && auth.correlationId !== true)) return;
    const value = headerValue(request, 'x-correlation-id');
    if (value === undefined) {
      request.correlationId = request.id;
      return;
    }
    if (!CORRELATION_ID_RE.test(value)) {
      throw new AppError('validation_failed', 'X-Correlation-Id must be 1 to 128 visible ASCII characters.', {
        issues: [{ path: 'headers.x-correlation-id', message: 'must be 1 to 128 visible ASCII characters' }],
      });
    }
    request.correlationId = value;
  });
}
