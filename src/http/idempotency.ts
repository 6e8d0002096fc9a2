/**
 * HTTP glue of idempotency (src/idempotency/): a request becomes an idempotent call, a refusal becomes its stored
 * response, and an outcome (fresh or replayed) becomes a reply.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyScope } from '../actor.ts';
import { AppError } from '../errors.ts';
import type {
  ErrorResponse,
  Idempotency,
  IdempotentCall,
  IdempotentOperation,
  IdempotentOutcome,
} from '../idempotency/index.ts';
import { errorBody, STATUS_BY_CODE } from './errors.ts';

export type { Idempotency, IdempotentOperation, IdempotentOutcome, StoredResponse } from '../idempotency/index.ts';

/** A refusal as stored and answered: its status and the error envelope. */
export const errorResponse: ErrorResponse = (error: AppError, requestId: string) => ({
  status: STATUS_BY_CODE[error.code],
  body: errorBody(requestId, error.code, error.message, error.details),
});

const ANY_CASE_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * The path a request asks for, as the idempotency record identifies it: a uuid names one thing in any case
 * (src/http/uuid-text.ts), so a uuid in the path is compared in lower case and a retry may spell it either way.
 */
function requestPath(url: string): string {
  const path = url.split('?')[0] ?? url;
  return /[A-F]/.test(path) ? path.replace(ANY_CASE_UUID, (uuid) => uuid.toLowerCase()) : path;
}

/** The idempotent call a request makes: its principal's scope, its key, and what it asks. */
export function idempotentCall(request: FastifyRequest): IdempotentCall {
  if (!request.actor) throw new AppError('unauthenticated', 'A valid bearer credential is required.');
  const rawKey = request.headers['idempotency-key'];
  return {
    scope: idempotencyScope(request.actor),
    key: Array.isArray(rawKey) ? rawKey.join(', ') : rawKey,
    method: request.method,
    path: requestPath(request.url),
    body: request.body,
    requestId: request.id,
  };
}

/** Sends an outcome, fresh or replayed. */
export function sendOutcome(reply: FastifyReply, outcome: IdempotentOutcome): FastifyReply {
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.response.status).send(outcome.response.body);
}

/**
 * Route glue: runs `operation` under the request's Idempotency-Key and sends the outcome (fresh or replayed).
 * The caller must have authenticated the request (the key is scoped to its principal).
 */
export async function sendIdempotent(
  idempotency: Idempotency,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: IdempotentOperation,
): Promise<FastifyReply> {
  return sendOutcome(reply, await idempotency.run(idempotentCall(request), operation));
}
