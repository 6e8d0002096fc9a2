/**
 * The one pipeline of every write (docs/ARCHITECTURE.md, "A heartbeat" and "An intake"). A route declares its
 * write: who acts, its input, the service operation, which answer it gives (`{ data }` or `{ data, meta }`) and,
 * optionally, a known write; the pipeline runs it under the request's Idempotency-Key (src/idempotency/) and
 * sends the outcome, fresh or replayed. Services stay plain functions of (transaction, actor, input).
 */
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Transaction } from 'kysely';
import type { Actor, KeyCredential } from '../shared/actor.ts';
import type { Database } from '../db/types.ts';
import { type AppError, RefusalAfterWrites, unauthenticated } from '../shared/errors.ts';
import type {
  ErrorResponse,
  Idempotency,
  IdempotentCall,
  IdempotentOperation,
  IdempotentOutcome,
  KnownChange,
  StoredResponse,
} from '../idempotency/index.ts';
import { envelope } from './envelope.ts';
import { errorBody, STATUS_BY_CODE } from './errors.ts';
import type { RouteRequest } from './route-app.ts';
import { cachedKeyCredential, headerValue, withConfirmedKey, type ConfirmKey } from '../auth/route-auth.ts';

/** A refusal as stored and answered: its status and the error envelope. */
export const errorResponse: ErrorResponse = (error: AppError, requestId: string) => ({
  status: STATUS_BY_CODE[error.code],
  body: errorBody(requestId, error.code, error.message, error.details),
});

const ANY_CASE_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * The path a request asks for, as the idempotency record identifies it: a uuid names one thing in any case
 * (src/http/validation.ts), so a uuid in the path is compared in lower case and a retry may spell it either way.
 */
function requestPath(url: string): string {
  const path = url.split('?')[0] ?? url;
  return /[A-F]/.test(path) ? path.replace(ANY_CASE_UUID, (uuid) => uuid.toLowerCase()) : path;
}

/** The principal that scopes idempotency keys: the dashboard user, or the key's application in its environment. */
function idempotencyScope(actor: Actor): string {
  return actor.kind === 'user' ? `user:${actor.userId}` : `app:${actor.application.id}:${actor.environment}`;
}

/**
 * The idempotent call a request makes: its principal's scope, its key, and what it asks. A cached API key (not
 * looked up for this request) is confirmed by the statement that takes the call's key: the call carries its
 * credential.
 */
export function idempotentCall(request: FastifyRequest): IdempotentCall {
  if (!request.actor) throw unauthenticated();
  const credential = cachedKeyCredential(request);
  return {
    scope: idempotencyScope(request.actor),
    key: headerValue(request, 'idempotency-key'),
    method: request.method,
    path: requestPath(request.url),
    body: request.body,
    requestId: request.id,
    ...(credential === undefined ? {} : { credential }),
  };
}

/**
 * The request a write belongs to, as the command it records names it: its request id and its Idempotency-Key as
 * sent (an operation's input carries it where the operation records a command).
 */
export function requestContext(request: FastifyRequest): { requestId: string; idempotencyKey: string | null } {
  return { requestId: request.id, idempotencyKey: headerValue(request, 'idempotency-key') ?? null };
}

/**
 * Sends an outcome, fresh or replayed, and waits until it is sent. The handler answers through `reply` and returns
 * nothing: an outcome's body is the stored JSON of the first answer, not a value of the route's declared answer type.
 */
async function sendOutcome(reply: FastifyReply, outcome: IdempotentOutcome): Promise<void> {
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  await reply.code(outcome.response.status).send(outcome.response.body);
}

/**
 * A service operation: in the write's transaction, as `actor`, with `input`; its result's data, or a refusal
 * (thrown, its writes undone; or returned after writes that must commit).
 */
export type WriteOperation<A extends Actor, Input, Data> = (
  trx: Transaction<Database>,
  actor: A,
  input: Input,
) => Promise<Data | RefusalAfterWrites>;

/**
 * A write whose answer is known before it runs, tried first on a route that may use a cached key: `change` says
 * what it would change (null when its answer is not known: the full operation runs), `data` what it answers;
 * its apply checks the key's credential in the same statement.
 */
export interface KnownWrite<A extends Actor, Input, Change, Data> extends KnownChange<Change> {
  change(actor: A, input: Input, credential: KeyCredential): Change | null;
  data(change: Change): Data;
}

/**
 * A write route's declaration. `S` is the route's schema: the handler the pipeline returns takes it from the route
 * it is given to, so `input` reads a request typed from that schema (src/http/route-app.ts).
 */
export interface WriteRoute<S extends FastifySchema, A extends Actor, Input, Data, Change> {
  /** `data`: the answer is `{ data }` (the shift endpoints); `meta`: `{ data, meta }` (docs/API.md, "Which answers carry `meta`"). */
  readonly answer: 'data' | 'meta';
  /** The request's actor (its authentication is the route's `config.auth`). */
  readonly actor: (request: FastifyRequest) => A;
  readonly input: (request: RouteRequest<S>) => Input;
  readonly operation: WriteOperation<A, Input, Data>;
  readonly known?: KnownWrite<A, Input, Change, Data>;
}

export interface WritePipelineDeps {
  readonly idempotency: Idempotency;
  readonly confirmKey: ConfirmKey;
}

export type WriteHandler<S extends FastifySchema> = (request: RouteRequest<S>, reply: FastifyReply) => Promise<void>;

export type WritePipeline = <S extends FastifySchema, A extends Actor, Input, Data, Change = never>(
  route: WriteRoute<S, A, Input, Data, Change>,
) => WriteHandler<S>;

/** The route handler of every idempotent write (see the module's comment). */
export function writePipeline({ idempotency, confirmKey }: WritePipelineDeps): WritePipeline {
  return <S extends FastifySchema, A extends Actor, Input, Data, Change>(
    route: WriteRoute<S, A, Input, Data, Change>,
  ): WriteHandler<S> => {
    const withMeta = route.answer === 'meta';
    const ok = (request: FastifyRequest, data: Data): StoredResponse => ({
      status: 200,
      body: withMeta ? envelope(request, data) : { data },
    });
    const run = (request: RouteRequest<S>, input: Input): IdempotentOperation => {
      const actor = route.actor(request);
      return async (trx) => {
        const result = await route.operation(trx, actor, input);
        return result instanceof RefusalAfterWrites ? result : ok(request, result as Data);
      };
    };

    return async (request, reply) => {
      const call = idempotentCall(request);
      const input = route.input(request);
      const verified = request.verifiedKey;
      if (verified !== null) {
        const known = route.known;
        const change = known ? known.change(route.actor(request), input, verified.credential) : null;
        if (known && change !== null) {
          const outcome = await idempotency.applyKnown(call, ok(request, known.data(change)), known, change);
          if (outcome) return sendOutcome(reply, outcome);
        }
      }
      // Once the key is confirmed, the call is made again: its scope and credential follow the actor.
      const outcome = await withConfirmedKey(request, confirmKey, (confirmed) =>
        idempotency.run(confirmed ? idempotentCall(request) : call, run(request, input)),
      );
      return sendOutcome(reply, outcome);
    };
  };
}
