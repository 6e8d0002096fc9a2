import { GatewayError } from './errors.ts';
import type { operations } from './openapi.ts';

/** A success of the gateway: the body, with what the headers say about it. */
export interface Reply<Body> {
  readonly body: Body;
  readonly status: number;
  /** X-Request-Id of this answer (quote it when reporting a problem). */
  readonly requestId: string | undefined;
  /** True when the answer is the stored result of an earlier request with the same Idempotency-Key. */
  readonly replayed: boolean;
  /** The Idempotency-Key the write was sent with (undefined for reads). */
  readonly idempotencyKey: string | undefined;
}

/** The JSON body of an operation's 200 answer. */
export type SuccessBody<Op extends keyof operations> = operations[Op]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The JSON request body of an operation. */
export type RequestBody<Op extends keyof operations> =
  NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Body } } ? Body : never;

/** The query parameters of an operation. */
export type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

/** What openapi-fetch resolves with. */
interface Fetched<Body> {
  readonly data?: Body;
  readonly error?: unknown;
  readonly response: Response;
}

/** The success as a Reply; any other answer as a GatewayError carrying its error envelope. */
export async function settle<Body>(fetched: Promise<Fetched<Body>>, idempotencyKey?: string): Promise<Reply<Body>> {
  const { data, error, response } = await fetched;
  if (!response.ok || data === undefined) throw new GatewayError(response, error);
  return {
    body: data,
    status: response.status,
    requestId: response.headers.get('x-request-id') ?? undefined,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    idempotencyKey,
  };
}
