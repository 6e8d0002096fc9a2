/**
 * The closed list of error codes. Services raise AppError with one of these; the HTTP layer alone maps
 * codes to statuses (src/http/errors.ts). The last four answer what Node's HTTP parser rejects before a request
 * reaches a route (src/http/connections.ts): a malformed request, a request not received in time, an `Expect`
 * other than 100-continue, request headers over the limit.
 */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_json',
  'idempotency_key_required',
  'invalid_idempotency_key',
  'unauthenticated',
  'insufficient_scope',
  'permission_denied',
  'workspace_access_denied',
  'feature_disabled',
  'universe_not_allowed',
  'guild_mismatch',
  'chat_not_connected',
  'application_not_approved',
  'staff_inactive',
  'not_found',
  'method_not_allowed',
  'invalid_state_transition',
  'shift_not_active',
  'server_mismatch',
  'form_closed',
  'submission_pending',
  'application_cooldown',
  'notice_overlap',
  'notice_finalized',
  'rank_not_assignable',
  'rank_unchanged',
  'idempotency_request_in_progress',
  'payload_too_large',
  'unsupported_media_type',
  'submission_finalized',
  'idempotency_key_reused',
  'rate_limited',
  'internal_error',
  'bad_request',
  'request_timeout',
  'expectation_failed',
  'headers_too_large',
  'not_ready',
  'service_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/**
 * A refusal whose writes still commit (a thrown AppError rolls the operation back): e.g. a heartbeat on a shift
 * that has timed out completes the shift and is refused. A write operation returns it in place of its result; it
 * is answered (and stored) like a thrown refusal.
 */
export class RefusalAfterWrites {
  readonly refusal: AppError;
  constructor(refusal: AppError) {
    this.refusal = refusal;
  }
}

export function validationError(issues: ValidationIssue[], message = 'The request is invalid.'): AppError {
  return new AppError('validation_failed', message, { issues });
}

/** 401: the request carries no credential this gateway accepts (the message says which one it wanted). */
export function unauthenticated(message = 'A valid bearer credential is required.'): AppError {
  return new AppError('unauthenticated', message);
}

export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} was not found.`);
}
