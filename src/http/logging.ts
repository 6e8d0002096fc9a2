import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.js';

/** Credentials never reach the logs, whatever a log line carries. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-signature"]',
  'headers.authorization',
  '*.authorization',
  '*.secret',
  '*.apiKey',
  '*.token',
  'secret',
  'token',
];

/** Credential-shaped text: an API key, or a JWT (three base64url parts, the first a JSON object). */
const CREDENTIAL_PATTERN = /wsk_(?:test|live)_[0-9A-Za-z]+|eyJ[\w-]*\.[\w-]*\.[\w-]*/g;

function redactCredentials(text: string): string {
  return text.replace(CREDENTIAL_PATTERN, '[redacted]');
}

/**
 * Fastify's request serializer, with credentials a client sent by mistake in the URL (a query parameter, a path
 * segment) masked: the URL is logged with every request.
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactCredentials(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
  };
}
