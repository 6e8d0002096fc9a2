import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailable, unavailability } from '../db/unavailable.ts';
import { AppError, ERROR_CODES, type ErrorCode, type ValidationIssue } from '../shared/errors.ts';

export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  validation_failed: 400,
  invalid_json: 400,
  idempotency_key_required: 400,
  invalid_idempotency_key: 400,
  unauthenticated: 401,
  insufficient_scope: 403,
  permission_denied: 403,
  workspace_access_denied: 403,
  feature_disabled: 403,
  universe_not_allowed: 403,
  guild_mismatch: 403,
  chat_not_connected: 403,
  application_not_approved: 403,
  staff_inactive: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_state_transition: 409,
  shift_not_active: 409,
  server_mismatch: 409,
  form_closed: 409,
  submission_pending: 409,
  application_cooldown: 409,
  notice_overlap: 409,
  notice_finalized: 409,
  rank_not_assignable: 403,
  rank_unchanged: 409,
  idempotency_request_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  submission_finalized: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  bad_request: 400,
  request_timeout: 408,
  expectation_failed: 417,
  headers_too_large: 431,
  not_ready: 503,
  service_unavailable: 503,
};

/**
 * Seconds a 503 asks the client to wait (`Retry-After`): the database is usually back, or the failed connection
 * replaced, within a few seconds (docs/RELIABILITY.md, "When the database goes away").
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

export const ERROR_SCHEMA_ID = 'ErrorResponse';

const PathIssueSchema = Type.Object(
  {
    path: Type.String({
      description: 'Where: the request part (`body`, `querystring`, `params`, `headers`) and the property, dot-separated.',
      examples: ['body.serverId'],
    }),
    message: Type.String({ description: 'What is wrong with it.', examples: ['must NOT have more than 128 characters'] }),
  },
  { additionalProperties: false, title: 'PathIssue' },
);

/** An answer checked against an application form: which question, and a stable code for what is wrong. */
const AnswerIssueSchema = Type.Object(
  {
    questionId: Type.String({ description: 'The question the problem concerns (or the unknown answer key).', examples: ['age'] }),
    code: Type.String({
      enum: ['required', 'unknown_question', 'wrong_type', 'too_long', 'below_min', 'above_max', 'not_an_option', 'duplicate_option'],
      description: 'Stable code of the problem.',
    }),
    message: Type.String({ description: 'What is wrong with it.', examples: ['must be at least 13'] }),
  },
  { additionalProperties: false, title: 'AnswerIssue' },
);

const ValidationIssueSchema = Type.Union([PathIssueSchema, AnswerIssueSchema], {
  description:
    'A problem with the request: `{ path, message }`, or, for the answers of an application submission, ' +
    '`{ questionId, code, message }`.',
});

const ErrorDetailsSchema = Type.Object(
  {
    issues: Type.Optional(
      Type.Array(ValidationIssueSchema, { description: '`validation_failed`: one entry per problem found (every answer problem at once).' }),
    ),
    requiredScope: Type.Optional(Type.String({ description: '`insufficient_scope`: the scope the route needs.' })),
    requiredPermission: Type.Optional(
      Type.String({ description: '`permission_denied`: the workspace permission the operation needs.' }),
    ),
    status: Type.Optional(
      Type.String({
        description: '`submission_finalized`, `notice_finalized`, `invalid_state_transition`: the submission\'s or notice\'s status.',
      }),
    ),
    submissionId: Type.Optional(
      Type.String({ format: 'uuid', description: '`submission_pending`: the applicant\'s submission awaiting review.' }),
    ),
    noticeId: Type.Optional(
      Type.String({ format: 'uuid', description: '`notice_overlap`: the overlapping notice that starts first.' }),
    ),
    rank: Type.Optional(
      Type.String({ description: '`rank_not_assignable`: the rank the API may neither give nor take; `rank_unchanged`: the current rank.' }),
    ),
    retryAfter: Type.Optional(
      Type.String({
        format: 'date-time',
        description: '`application_cooldown`: when the applicant may apply again (the rejection plus the form\'s cooldown).',
      }),
    ),
    limit: Type.Optional(Type.Integer({ description: '`rate_limited`: requests allowed per window.' })),
    windowSeconds: Type.Optional(Type.Integer({ description: '`rate_limited`: window length in seconds.' })),
    retryAfterSeconds: Type.Optional(
      Type.Integer({
        description: '`rate_limited`: seconds until the window resets; `service_unavailable`: seconds to wait before retrying.',
      }),
    ),
  },
  { additionalProperties: true, description: 'Extra context; which fields appear depends on `code`.' },
);

export const ErrorResponseSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ enum: [...ERROR_CODES], description: 'Stable machine-readable error code.' }),
      message: Type.String({ description: 'Human-readable explanation; wording may change.' }),
      requestId: Type.String({ pattern: '^req_[0-9A-Za-z]{16,}$', description: 'Equals the X-Request-Id header.' }),
      details: Type.Optional(ErrorDetailsSchema),
    }),
  },
  { $id: ERROR_SCHEMA_ID, title: 'ErrorResponse', description: 'Body of every 4xx and 5xx response.' },
);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; requestId: string; details?: Record<string, unknown> };
}

export function errorBody(
  requestId: string,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): ErrorBody {
  return { error: { code, message, requestId, ...(details ? { details } : {}) } };
}

export const AUTH_REALM = 'workspace-gateway';
const BEARER_CREDENTIAL = /^Bearer\s+\S/i;

/**
 * The RFC 6750 challenge of a 401: the realm, plus `error="invalid_token"` when a bearer credential was sent and
 * rejected (none, or another scheme, gets the bare challenge).
 */
export function bearerChallenge(authorization: string | string[] | undefined): string {
  const sent = typeof authorization === 'string' && BEARER_CREDENTIAL.test(authorization);
  return `Bearer realm="${AUTH_REALM}"${sent ? ', error="invalid_token"' : ''}`;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const status = STATUS_BY_CODE[error.code];
  if (status === 401) reply.header('www-authenticate', bearerChallenge(reply.request.headers.authorization));
  if (status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return reply.code(status).send(errorBody(reply.request.id, error.code, error.message, error.details));
}

interface AjvIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

function issuePath(context: string | undefined, issue: AjvIssue): string {
  let path = issue.instancePath ?? '';
  if (issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string') {
    path = `${path}/${issue.params.missingProperty}`;
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params?.additionalProperty === 'string') {
    path = `${path}/${issue.params.additionalProperty}`;
  }
  return `${context ?? 'body'}${path.replaceAll('/', '.')}`;
}

/**
 * A body that may be left out is declared `object | null` (the framework validates an absent body as null), but a
 * client never sends null there (a JSON `null` body is refused: `rejectNullBody` in validation.ts). So a type issue
 * at the body's root names the types without null: `[]` is told "must be object", as `null` is.
 */
function bodyRootType(issue: AjvIssue): string | null {
  const declared = issue.params?.type;
  if (issue.keyword !== 'type' || (issue.instancePath ?? '') !== '' || declared === undefined) return null;
  const types = (Array.isArray(declared) ? declared : String(declared).split(',')).filter((type) => type !== 'null');
  return types.length > 0 ? `must be ${types.join(',')}` : null;
}

function issueMessage(context: string | undefined, issue: AjvIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not a known property';
  if (issue.keyword === 'required') return 'is required';
  if ((context ?? 'body') === 'body') return bodyRootType(issue) ?? issue.message ?? 'is invalid';
  return issue.message ?? 'is invalid';
}

export function validationIssues(error: FastifyError): ValidationIssue[] {
  const issues = (error.validation ?? []) as AjvIssue[];
  const context = error.validationContext;
  return issues.map((issue) => ({ path: issuePath(context, issue), message: issueMessage(context, issue) }));
}

/**
 * The 503 of a request that needs the database while it is unreachable. A write whose connection broke while it
 * committed may have been applied: its retry under the same Idempotency-Key tells (a stored result is replayed).
 */
function unavailableError(error: unknown): AppError | null {
  if (unavailability(error) === null) return null;
  const message =
    error instanceof DatabaseUnavailable && error.outcomeUnknown
      ? `The database connection broke while this write was committing, so it may have been applied; retry it ` +
        `with the same Idempotency-Key in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s to learn its outcome.`
      : `The database is unreachable; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s.`;
  return new AppError('service_unavailable', message, { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
}

/** Maps framework errors (parsing, limits, schema validation) and an unreachable database onto the closed code list. */
export function toAppError(error: FastifyError): AppError | null {
  if (error instanceof AppError) return error;
  const unavailable = unavailableError(error);
  if (unavailable) return unavailable;
  if (error.validation) {
    return new AppError('validation_failed', 'The request is invalid.', { issues: validationIssues(error) });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body exceeds 64 KiB.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_json', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('validation_failed', 'The Content-Length header does not match the body.', { issues: [] });
    default:
      break;
  }
  if (error instanceof SyntaxError) return new AppError('invalid_json', 'The request body is not valid JSON.');
  const status = error.statusCode ?? 500;
  if (status === 413) return new AppError('payload_too_large', 'The request body is too large.');
  if (status === 415) return new AppError('unsupported_media_type', 'Send the body as application/json.');
  if (status >= 400 && status < 500) return new AppError('validation_failed', 'The request is invalid.', { issues: [] });
  return null;
}

function allowedMethods(url: string, routes: readonly RouteShape[]): string[] {
  const path = url.split('?')[0] ?? url;
  return routes.filter((r) => r.pattern.test(path)).map((r) => r.method);
}

interface RouteShape {
  readonly method: string;
  readonly pattern: RegExp;
}

function routePattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((part) => {
      if (part.startsWith(':')) return '[^/]+';
      if (part === '*') return '.*';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * An HTTP/1.1 request must carry `Host` (RFC 9112, section 3.2; HTTP/1.0 need not): without it, 400 `bad_request`
 * and the connection closed, as for the requests Node's parser rejects (src/http/connections.ts), before the
 * route's own checks. Node's own check is off (`requireHostHeader` in `connectionOptions`): it answers a bare 400.
 * Sends the answer and returns true when the request lacks its Host.
 */
function answerMissingHost(request: FastifyRequest, reply: FastifyReply): boolean {
  const { httpVersionMajor, httpVersionMinor } = request.raw;
  if (httpVersionMajor !== 1 || httpVersionMinor !== 1 || request.headers.host !== undefined) return false;
  reply.header('connection', 'close');
  sendError(reply, new AppError('bad_request', 'An HTTP/1.1 request must carry a Host header.'));
  return true;
}

/**
 * Errors the router raises before any hook runs: a path parameter with a malformed percent-encoding
 * (FST_ERR_BAD_URL) or longer than the router's limit (FST_ERR_MAX_PARAM_LENGTH). Such a path names no resource,
 * so the answer is 404 not_found, in the envelope and with X-Request-Id like every other response (the router's
 * own answer is a bare 400/414 without either). Passed to Fastify as `frameworkErrors`.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  if (answerMissingHost(request, reply)) return;
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendError(reply, new AppError('not_found', 'No resource has this path.'));
    return;
  }
  request.log.error({ err: error }, 'router error');
  sendError(reply, new AppError('internal_error', 'An unexpected error occurred.'));
}

export function registerErrorHandling(app: FastifyInstance): void {
  const routes: RouteShape[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, pattern: routePattern(route.url) });
  });

  const unhandled = (request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply => {
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, new AppError('internal_error', 'An unexpected error occurred.'));
  };

  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (!appError) return unhandled(request, reply, error);
    // A cached API key (not looked up for this request) is confirmed before any other refusal is answered, so a
    // key revoked, expired or stripped of its rights gets its 401/403 first, as a looked-up key would (validation,
    // content type and rate limits come after authentication).
    // An unreachable database is no refusal: nothing to confirm, and the lookup would wait for it again.
    if (appError.code !== 'unauthenticated' && appError.code !== 'service_unavailable' && request.verifiedKey?.cached === true) {
      try {
        await request.server.confirmKey(request);
      } catch (refusal) {
        const refused = toAppError(refusal as FastifyError);
        return refused ? sendError(reply, refused) : unhandled(request, reply, refusal);
      }
    }
    return sendError(reply, appError);
  });

  const unmatched = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const methods = allowedMethods(request.url, routes);
    // A route of this method that found nothing (e.g. a missing file under a wildcard) is a 404, not a 405.
    if (methods.length > 0 && !methods.includes(request.method)) {
      reply.header('allow', [...new Set(methods)].join(', '));
      return sendError(reply, new AppError('method_not_allowed', `${request.method} is not allowed on this path.`));
    }
    return sendError(reply, new AppError('not_found', 'No route matches this path.'));
  };
  // A request without its Host, then an unknown path or method, is answered before its body is read: the body is
  // never the problem there (otherwise a bad or oversized body on a wrong method would be 400/413/415, not 404/405).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (answerMissingHost(request, reply)) return reply;
    if (!request.is404) return;
    return unmatched(request, reply);
  });
  app.setNotFoundHandler(unmatched);
}
