import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './openapi.ts';
import { SIGN_IN_PATHS } from './console.ts';
import { gatewayOperations, type GatewayOperations } from './operations.ts';
import { retryingFetch, type FetchLike, type RetryOptions } from './retry.ts';

export interface GatewayClientOptions {
  /** Base address of the gateway, e.g. `https://gateway.example.com`. */
  readonly baseUrl: string;
  /** A workspace API key (`wsk_test_…` / `wsk_live_…`), for integrations, bots and game servers. */
  readonly apiKey?: string;
  /** A dashboard user's access token (JWT), for application review. */
  readonly token?: string;
  /** The transport (default: the global fetch). */
  readonly fetch?: FetchLike;
  /** Retry policy; `false` sends every request once. */
  readonly retry?: RetryOptions | false;
}

export type GatewayClient = GatewayOperations & {
  /** The typed openapi-fetch client underneath (same credential, retries and idempotency keys). */
  readonly api: Client<paths>;
};

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Gives a write sent through `api` without an Idempotency-Key a new one (its retries then reuse it); not the
 * console's sign-in operations, which take none.
 */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (WRITE_METHODS.has(request.method) && !SIGN_IN_PATHS.has(schemaPath) && !request.headers.get('idempotency-key')) {
      request.headers.set('idempotency-key', globalThis.crypto.randomUUID());
    }
    return request;
  },
};

/**
 * A client of the gateway: one typed method per operation, the credential sent as a bearer token, a fresh
 * Idempotency-Key per logical write reused on its retries, and network errors, 5xx and 429 retried with backoff
 * (Retry-After honoured). A non-success answer rejects with a GatewayError.
 */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  if (options.apiKey !== undefined && options.token !== undefined) {
    throw new TypeError('createGatewayClient: pass apiKey or token, not both');
  }
  const credential = options.apiKey ?? options.token;
  const transport: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.retry === false ? transport : retryingFetch(transport, options.retry),
    headers: credential === undefined ? {} : { authorization: `Bearer ${credential}` },
  });
  api.use(idempotencyKeys);
  return { ...gatewayOperations(api), api };
}
