import { Type } from '@sinclair/typebox';

/**
 * Request headers shared by many routes, declared once: each is the route's validation, its TypeScript type and
 * its OpenAPI entry.
 */

/** `X-Correlation-Id`: 1 to 128 visible ASCII characters (checked before validation, see route-auth). */
export const CORRELATION_ID_PATTERN = '^[\\x21-\\x7E]{1,128}$';
export const CORRELATION_ID_RE = new RegExp(CORRELATION_ID_PATTERN);

/**
 * `Idempotency-Key`: 1 to 255 printable ASCII characters (space included). The idempotency module enforces the
 * same rule with its own codes (400 `idempotency_key_required`, 400 `invalid_idempotency_key`), after the body is
 * validated; the header validator leaves this header to it (see http/validation.ts).
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]+$';

export function idempotencyKeyHeader(scope: string) {
  return Type.String({
    minLength: 1,
    maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
    pattern: IDEMPOTENCY_KEY_PATTERN,
    description:
      `Required on every write. 1 to 255 printable ASCII characters, scoped to ${scope}; a random UUID per ` +
      'logical operation is a good choice, reused for its retries. Missing or empty: 400 ' +
      '`idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key ' +
      'with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with ' +
      'a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 ' +
      '`idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.',
    examples: ['5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64'],
  });
}

export const CorrelationIdHeader = Type.Optional(
  Type.String({
    pattern: CORRELATION_ID_PATTERN,
    description:
      'Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` ' +
      'where the body has `meta` (else the request id is used) and written to the request log.',
    examples: ['discord-interaction-1187'],
  }),
);

export const CorrelationHeadersSchema = Type.Object({ 'x-correlation-id': CorrelationIdHeader });
