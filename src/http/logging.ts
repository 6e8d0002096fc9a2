import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../shared/config.ts';

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

/** Credential-shaped text: an API key (its prefix in any case), or a JWT (three base64url parts). */
const CREDENTIAL = /wsk_(?:test|live)_[0-9a-z]+|eyj[\w-]*\.[\w-]*\.[\w-]*/i;
/** Text that may hold a credential, plain or percent-encoded: the quick test before the token-by-token one. */
const SUSPECT = /%[0-9a-f]{2}|wsk_|eyj/i;
/** A run of text between the separators of URLs, headers and JSON (where a credential begins and ends). */
const TOKEN = /[^\s"'\\/?&=;,#<>()[\]{}]+/g;
const ENCODED = /%([0-9a-f]{2})/gi;
/** Decoding rounds: a key encoded twice (`%2577…`) is still a key. */
const MAX_DECODE_ROUNDS = 4;

/**
 * Whether `token` is, or decodes to, text holding a credential. Percent-escapes are decoded byte by byte (a
 * credential is ASCII), so a malformed escape never stops the check.
 */
function holdsCredential(token: string): boolean {
  let text = token;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round += 1) {
    if (CREDENTIAL.test(text)) return true;
    const decoded = text.replace(ENCODED, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (decoded === text) return false;
    text = decoded;
  }
  return CREDENTIAL.test(text);
}

/**
 * Masks every token of `text` that is or decodes to a credential: `wsk_live_…`, `wsk%5Flive%5F…`, a key encoded
 * character by character, a JWT with `%2E` separators, a key sent as the Host header. The whole token goes, so no
 * encoded piece of the secret is left either.
 */
export function redactCredentials(text: string): string {
  if (!SUSPECT.test(text)) return text;
  return text.replace(TOKEN, (token) => (holdsCredential(token) ? '[redacted]' : token));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's path names a person (an applicant's game user id): its requests are logged with the route
     * pattern instead of the URL, so the log never holds personal data.
     */
    personalPath?: boolean;
  }
}

/** The URL as logged: the route pattern for a route whose path names a person, else the URL, credentials masked. */
function loggedUrl(request: FastifyRequest): string {
  const route = request.routeOptions as { url?: string; config?: { personalPath?: boolean } } | undefined;
  if (route?.config?.personalPath === true && route.url !== undefined) return route.url;
  return redactCredentials(request.url);
}

/**
 * Fastify's request serializer, with credentials a client sent by mistake in the URL (a query parameter, a path
 * segment) or the Host header masked: both are logged with every request.
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request),
    host: redactCredentials(request.host),
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export type LogFormat = 'pretty' | 'json';

/** Human-readable lines for a person at a terminal; JSON lines for everything else (files, pipes, collectors). */
export function logFormatFor(stdout: { readonly isTTY?: boolean }): LogFormat {
  return stdout.isTTY === true ? 'pretty' : 'json';
}

/**
 * Pino options. Redaction and serializers run in this process, before any line is written, so the pretty format
 * (pino-pretty, in pino's transport thread) only ever sees lines already redacted.
 */
export function loggerOptions(level: LogLevel, format: LogFormat = 'json'): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
    // Every line, whatever field carries the text (a message, an error, a binding), as it is written.
    hooks: { streamWrite: redactCredentials },
    ...(format === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}
