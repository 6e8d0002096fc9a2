import type { ErrorCode } from '../shared/errors.ts';
import { AUTH_REALM, ERROR_SCHEMA_ID, STATUS_BY_CODE } from './errors.ts';

/**
 * Error responses as the OpenAPI document shows them: the shared error body, a description naming the codes the
 * operation can answer with that status, and one example per code.
 */

/** A request id of the documented form, used in every example. */
export const EXAMPLE_REQUEST_ID = 'req_7Hq2LmX9cTz4Rb8Kw1Np';

interface ErrorSample {
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

/** What each code looks like on the wire (messages as the service words them today; wording may change). */
const SAMPLES: Readonly<Record<ErrorCode, ErrorSample>> = {
  validation_failed: {
    message: 'The request is invalid.',
    details: { issues: [{ path: 'body.serverId', message: 'must NOT have more than 128 characters' }] },
  },
  invalid_json: { message: 'The request body is not valid JSON.' },
  idempotency_key_required: { message: 'The Idempotency-Key header is required for this operation.' },
  invalid_idempotency_key: { message: 'Idempotency-Key must be 1 to 255 printable ASCII characters.' },
  unauthenticated: { message: 'A valid bearer credential is required.' },
  insufficient_scope: {
    message: 'This API key lacks the activity:write scope.',
    details: { requiredScope: 'activity:write' },
  },
  permission_denied: {
    message: 'This operation requires the applications.decide permission.',
    details: { requiredPermission: 'applications.decide' },
  },
  workspace_access_denied: { message: 'You are not a member of the selected workspace.' },
  feature_disabled: { message: 'The activity feature is not enabled for this application.' },
  universe_not_allowed: { message: 'Universe 42 is not allowed for this application.' },
  guild_mismatch: { message: 'X-Chat-Guild-Id does not match the workspace\'s connected guild.' },
  chat_not_connected: { message: 'The workspace has no connected chat guild.' },
  application_not_approved: { message: 'The application of this API key is not approved.' },
  staff_inactive: { message: 'The staff member is inactive and cannot start shifts.' },
  not_found: { message: 'The shift was not found.' },
  method_not_allowed: { message: 'DELETE is not allowed on this path.' },
  invalid_state_transition: {
    message: 'This operation is not allowed while the submission is under_review.',
    details: { status: 'under_review' },
  },
  shift_not_active: { message: 'The shift is not active.' },
  server_mismatch: { message: 'serverId does not match the shift\'s server.' },
  form_closed: { message: 'The form is closed; it takes no submissions.' },
  submission_pending: {
    message: 'The applicant already has a submission to this form awaiting review.',
    details: { submissionId: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e' },
  },
  application_cooldown: {
    message: 'The applicant was rejected recently; they may apply to this form again after the cooldown.',
    details: { retryAfter: '2026-03-25T12:00:00.000Z' },
  },
  notice_overlap: {
    message: 'The staff member already has a pending or approved inactivity notice overlapping these dates.',
    details: { noticeId: '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a' },
  },
  notice_finalized: {
    message: 'The inactivity notice is already denied; it can no longer change.',
    details: { status: 'denied' },
  },
  rank_not_assignable: {
    message: 'The rank "Owner" is not assignable: the API neither gives nor takes it.',
    details: { rank: 'Owner' },
  },
  rank_unchanged: { message: 'The staff member already holds the rank "Moderator".', details: { rank: 'Moderator' } },
  idempotency_request_in_progress: {
    message: 'A request with this Idempotency-Key is still being processed; retry shortly.',
  },
  payload_too_large: { message: 'The request body exceeds 64 KiB.' },
  unsupported_media_type: { message: 'Send the body as application/json.' },
  submission_finalized: {
    message: 'The submission is already accepted; it can no longer change.',
    details: { status: 'accepted' },
  },
  idempotency_key_reused: { message: 'This Idempotency-Key was already used with a different request.' },
  rate_limited: {
    message: 'Too many requests; retry in 17 s.',
    details: { limit: 6000, windowSeconds: 60, retryAfterSeconds: 17 },
  },
  internal_error: { message: 'An unexpected error occurred.' },
  bad_request: { message: 'The request could not be parsed as HTTP.' },
  request_timeout: { message: 'The request was not received in time.' },
  expectation_failed: { message: 'Only `Expect: 100-continue` is supported.' },
  headers_too_large: { message: 'The request headers are too large.' },
  not_ready: { message: 'Database migrations are pending.', details: { reason: 'migrations_pending', pending: ['20261124_0004_activity_totals'] } },
  service_unavailable: {
    message: 'The database is unreachable; retry in 2 s.',
    details: { retryAfterSeconds: 2 },
  },
};

/** An error body of the documented form, as an example. */
export function errorExample(code: ErrorCode): { error: Record<string, unknown> } {
  const { message, details } = SAMPLES[code];
  return { error: { code, message, requestId: EXAMPLE_REQUEST_ID, ...(details ? { details } : {}) } };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request.',
  401: 'Missing, malformed, unknown, revoked or expired credential.',
  403: 'The credential may not do this.',
  404: 'The resource does not exist or is not visible to this credential.',
  405: 'Method not allowed on this path.',
  409: 'Conflict with the current state or with a request in flight.',
  413: 'Body over 64 KiB.',
  415: 'Body is not application/json.',
  422: 'The request is well formed but cannot be applied.',
  429: 'Too many requests for this API key or user; see Retry-After and RateLimit.',
  408: 'The request was not received in time.',
  417: 'Unsupported Expect header.',
  431: 'Request headers too large.',
  500: 'Unexpected error.',
  503: 'Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`.',
};

/** Marks a route's response schema as an error response; documentRoute merges the codes of one status. */
export const ERROR_CODES_KEY = 'x-error-codes';

export type ErrorCodesByStatus = Partial<Record<number, readonly ErrorCode[]>>;

export interface ErrorResponseSchema {
  readonly $ref: string;
  readonly description: string;
  readonly [ERROR_CODES_KEY]: readonly ErrorCode[];
}

function describe(status: number, codes: readonly ErrorCode[]): string {
  const list = codes.map((code) => `\`${code}\``).join(', ');
  return `${STATUS_TEXT[status] ?? 'Error.'} Codes: ${list}.`;
}

/** One error response: the shared body and the codes it may carry. */
export function errorResponse(status: number, codes: readonly ErrorCode[]): ErrorResponseSchema {
  const unique = [...new Set(codes)];
  for (const code of unique) {
    if (STATUS_BY_CODE[code] !== status) throw new Error(`error code ${code} is not a ${status}`);
  }
  return { $ref: `${ERROR_SCHEMA_ID}#`, description: describe(status, unique), [ERROR_CODES_KEY]: unique };
}

/** `schema.response` entries for error statuses, each listing the codes this route answers with it. */
export function errorResponses(byStatus: ErrorCodesByStatus): Record<number, ErrorResponseSchema> {
  const out: Record<number, ErrorResponseSchema> = {};
  for (const [status, codes] of Object.entries(byStatus)) {
    if (codes) out[Number(status)] = errorResponse(Number(status), codes);
  }
  return out;
}

/** Joins two error responses of one status: the union of their codes. */
export function mergeErrorResponses(a: ErrorResponseSchema, b: ErrorResponseSchema, status: number): ErrorResponseSchema {
  return errorResponse(status, [...a[ERROR_CODES_KEY], ...b[ERROR_CODES_KEY]]);
}

export function isErrorResponse(schema: unknown): schema is ErrorResponseSchema {
  return typeof schema === 'object' && schema !== null && Array.isArray((schema as Record<string, unknown>)[ERROR_CODES_KEY]);
}

/** The named examples of an error response: one per code. */
export function errorExamples(codes: readonly ErrorCode[]): Record<string, { summary: string; value: unknown }> {
  const examples: Record<string, { summary: string; value: unknown }> = {};
  for (const code of codes) examples[code] = { summary: SAMPLES[code].message, value: errorExample(code) };
  return examples;
}

export const WWW_AUTHENTICATE_HEADER = {
  type: 'string',
  pattern: `^Bearer realm="${AUTH_REALM}"(, error="invalid_token")?$`,
  description:
    `RFC 6750 challenge: \`Bearer realm="${AUTH_REALM}"\`, plus \`error="invalid_token"\` when a bearer credential ` +
    'was sent and rejected.',
};

/** Reusable responses of requests that match no operation (see the document description). */
export function unmatchedResponses() {
  const errorBody = { $ref: '#/components/schemas/ErrorResponse' };
  const requestIdHeader = {
    required: true,
    description: 'Gateway request id of this response; equals `error.requestId`.',
    schema: { type: 'string' as const, pattern: '^req_[0-9A-Za-z]{16,}$' },
  };
  return {
    NotFound: {
      description: 'No route has this path (`not_found`), or the resource does not exist or is not visible.',
      headers: { 'X-Request-Id': requestIdHeader },
      content: { 'application/json': { schema: errorBody, example: errorExample('not_found') } },
    },
    MethodNotAllowed: {
      description:
        'The path exists but not with this method (`method_not_allowed`); `Allow` lists the methods it has.',
      headers: {
        'X-Request-Id': requestIdHeader,
        Allow: {
          required: true,
          description: 'The methods this path answers, comma-separated.',
          schema: { type: 'string' as const, pattern: '^[A-Z]+(, [A-Z]+)*$' },
          example: 'GET, HEAD',
        },
      },
      content: { 'application/json': { schema: errorBody, example: errorExample('method_not_allowed') } },
    },
  };
}
