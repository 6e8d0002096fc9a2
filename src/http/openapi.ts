import type { AddressInfo } from 'node:net';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import type { ErrorCode } from '../shared/errors.ts';
import { ErrorResponseSchema } from './errors.ts';
import { IDEMPOTENCY_KEY_HEADER } from './headers.ts';
import {
  errorResponses,
  isErrorResponse,
  ERROR_CODES_KEY,
  errorExamples,
  mergeErrorResponses,
  unmatchedResponses,
  WWW_AUTHENTICATE_HEADER,
  type ErrorCodesByStatus,
} from './openapi-responses.ts';
import type { RouteAuth } from '../auth/route-auth.ts';

export { errorResponses } from './openapi-responses.ts';

export const API_DESCRIPTION = `HTTP/JSON gateway of the workspace-management product.

* Business endpoints live under \`/v1\`; \`/health\`, \`/version\` and \`/openapi.json\` are unauthenticated.
* Every 4xx/5xx body is \`{ error: { code, message, requestId, details? } }\` with a stable \`code\`;
  every response carries \`X-Request-Id\` (\`req_\` + base62), equal to \`error.requestId\` (an idempotent replay
  returns the stored body of the first request, with that request's id).
* Request bodies are JSON (\`application/json\`, UTF-8), at most 64 KiB; unknown properties are rejected (400). A
  body is an object: \`null\`, \`[]\` or \`1\` is 400 \`validation_failed\`; only an absent or empty body is "no
  body", where the operation's body is optional. No text value (body, path, query, header) may contain U+0000 or an
  unpaired UTF-16 surrogate (400). A uuid names the same resource in any case.
* What is refused before any route runs is answered in the same envelope with \`X-Request-Id\`, and the connection
  closed: 400 \`bad_request\` (a malformed request; an HTTP/1.1 request without \`Host\`; \`CONNECT\`, since this
  server is no proxy and its target is not a path of this API), 408 \`request_timeout\` (headers or body not received
  in time), 417 \`expectation_failed\` (an \`Expect\` other than 100-continue), 431 \`headers_too_large\`. A request
  asking to switch protocols (\`Upgrade\`) is served as plain HTTP/1.1, and its connection closed after the answer.
* API keys (\`wsk_test_…\` / \`wsk_live_…\`) are shown once at provisioning and stored only as SHA-256 hashes.
  Data written with a test key is test data: every read sees only the calling key's environment.
* Checks run in this order: authentication (401); feature, scope and workspace selection (403); request
  validation and the idempotency key (400/415); idempotent replay; lookups (404); permission on the found
  resource (403); state (409/422).
* Idempotency: writes take an \`Idempotency-Key\` (1..255 printable ASCII), scoped to the dashboard user or to
  the API key's application and environment. A replay returns the stored status and body with
  \`Idempotent-Replayed: true\`; the same key with a different request is 422 \`idempotency_key_reused\`; while the
  first request is in flight, 409 \`idempotency_request_in_progress\` (a different request under a key still in
  flight on another instance is 409 too, until the first settles; 422 after). Results are kept 24 hours; 5xx
  results are not kept.
* Each error response of an operation lists the codes it can carry there (\`x-error-codes\`, also in its
  description), with one example body per code.
* 401 answers carry \`WWW-Authenticate: Bearer realm="workspace-gateway"\` (RFC 6750), with
  \`error="invalid_token"\` when a bearer credential was sent and rejected.
* Requests that match no operation: an unknown path is 404 \`not_found\`; a known path with another method is
  405 \`method_not_allowed\` with an \`Allow\` header listing the path's methods (see
  \`components.responses.NotFound\` and \`MethodNotAllowed\`, and \`x-unmatched-requests\`). Both carry
  \`X-Request-Id\` and the error body like every other error, and are answered before any body is read.
* \`webhooks\` describes what the gateway POSTs to a workspace's webhook endpoints (Standard Webhooks: signed, at
  least once, retried for 24 hours; deduplicate on \`webhook-id\`): one entry per event type, with the body an
  endpoint receives. Bodies may gain properties in later versions; a receiver ignores those it does not know.
* Query parameters are lenient where the contract says so: an unrecognized \`period\` means \`week\`, and
  \`includeInactive\` is true only for \`true\` or \`1\` (any other value, as \`false\` and \`0\`, is false).

## Servers

\`servers\` names one absolute base address: \`PUBLIC_BASE_URL\` when the operator sets it (the address clients
reach, e.g. behind a proxy), else, for a request through a proxy listed in \`TRUST_PROXY\`, the address the client
used (its \`X-Forwarded-Proto\` and host), else the address this instance listens on (\`http://127.0.0.1:3000\` by
default; a wildcard listen address is named as loopback). No relative \`/\` entry: generated clients and reference pages
need an absolute address, and the document is also read from files. Production and staging are separate
deployments, each serving its own document.

## Reference page

\`GET /docs\` serves an interactive reference of this document, with every asset served by the gateway.`;

const SERVER_DESCRIPTION = 'This deployment (PUBLIC_BASE_URL, else the listening address).';

/** Root extension naming the reusable answers to requests that match no operation. */
export const UNMATCHED_KEY = 'x-unmatched-requests';

export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'wsk_<test|live>_<secret>',
    description:
      'Scoped workspace API key bound to one approved application, one workspace and one environment. A revoked, ' +
      'expired or changed key (scopes, its application\'s approval or features) is judged as it now stands on its ' +
      'next request, on every instance.',
  },
  dashboardToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'Access token of a dashboard user (JWT; `sub` is the member user id, `exp` required). Its signature and ' +
      'claims are checked at most once a minute, and it is never accepted from its `exp` on; the permissions of ' +
      'its memberships are read on every request.',
  },
} as const;

const RESPONSE_HEADERS = {
  'x-request-id': {
    type: 'string',
    pattern: '^req_[0-9A-Za-z]{16,}$',
    description:
      'Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an ' +
      "idempotent replay, whose stored body keeps the first request's id.",
  },
};

const RATE_LIMIT_HEADERS = {
  ratelimit: {
    type: 'string',
    pattern: '^"default";r=[0-9]+;t=[0-9]+$',
    description: 'IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`.',
  },
  'ratelimit-policy': {
    type: 'string',
    pattern: '^"default";q=[0-9]+;w=[0-9]+$',
    description: 'IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user.',
  },
};

const RETRY_HEADERS = {
  'retry-after': { type: 'integer', description: 'Seconds to wait before retrying.' },
};

const IDEMPOTENCY_HEADERS = {
  'idempotent-replayed': {
    type: 'string',
    enum: ['true'],
    description: 'Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key.',
  },
};

function takesIdempotencyKey(schema: FastifySchema): boolean {
  const headers = schema.headers as { properties?: Record<string, unknown> } | undefined;
  return headers?.properties?.[IDEMPOTENCY_KEY_HEADER] !== undefined;
}

/** The error codes every route with this auth (and body, and idempotency key) can answer with. */
function defaultErrors(auth: RouteAuth | undefined, schema: FastifySchema): ErrorCodesByStatus {
  const codes: ErrorCodesByStatus = { 500: ['internal_error'] };
  if (!auth) return codes;
  if (auth.kind === 'none') return auth.database === true ? { ...codes, 503: ['service_unavailable'] } : codes;
  const invalid: ErrorCode[] = ['validation_failed'];
  if (schema.body !== undefined) invalid.push('invalid_json');
  if (takesIdempotencyKey(schema)) invalid.push('idempotency_key_required', 'invalid_idempotency_key');
  const refused: ErrorCode[] =
    auth.kind === 'user'
      ? ['workspace_access_denied']
      : [
          ...(auth.feature ? (['feature_disabled'] as const) : []),
          ...(auth.scope ? (['insufficient_scope'] as const) : []),
          'application_not_approved',
          ...(auth.orDashboardToken === true ? (['workspace_access_denied'] as const) : []),
        ];
  return {
    ...codes,
    400: invalid,
    401: ['unauthenticated'],
    403: refused,
    429: ['rate_limited'],
    503: ['service_unavailable'],
  };
}

/**
 * The errors of the write pipeline, the same for every route that reaches it, added after the route's own: a
 * route with a body answers 413 for one over the limit and 415 for one that is not JSON; a route that takes an
 * Idempotency-Key answers 409 while the first request with the key is in flight and 422 when the key was used with
 * another request.
 */
function pipelineErrors(schema: FastifySchema): ErrorCodesByStatus {
  return {
    ...(schema.body !== undefined ? { 413: ['payload_too_large'], 415: ['unsupported_media_type'] } : {}),
    ...(takesIdempotencyKey(schema) ? { 409: ['idempotency_request_in_progress'], 422: ['idempotency_key_reused'] } : {}),
  };
}

/** Adds error responses to `responses`: a status already there gets the union of the codes. */
function mergeInto(responses: Record<string | number, unknown>, added: Record<string | number, unknown>): void {
  for (const [status, response] of Object.entries(added)) {
    const present = responses[status];
    responses[status] =
      isErrorResponse(present) && isErrorResponse(response)
        ? mergeErrorResponses(present, response, Number(status))
        : response;
  }
}

/** Error codes by status of each documented operation (by operationId), for the document's examples. */
export type ErrorCodesByOperation = Map<string, Record<string, readonly ErrorCode[]>>;

/**
 * Completes each route's OpenAPI entry from its declared auth, body and headers: security, the statuses every such
 * route has and the write pipeline's (pipelineErrors); records the error codes of each status in `codes`.
 */
export function documentRoute(route: RouteOptions, codes?: ErrorCodesByOperation): void {
  const config = (route.config ?? {}) as { auth?: RouteAuth };
  const schema = (route.schema ?? {}) as FastifySchema & {
    security?: unknown;
    response?: Record<string | number, unknown>;
    hide?: boolean;
  };
  if (schema.hide) return;
  const auth = config.auth;
  if (auth?.kind === 'apiKey') schema.security = auth.orDashboardToken === true ? [{ apiKey: [] }, { dashboardToken: [] }] : [{ apiKey: [] }];
  else if (auth?.kind === 'user') schema.security = [{ dashboardToken: [] }];
  else schema.security = [];
  const responses: Record<string | number, unknown> = { ...errorResponses(defaultErrors(auth, schema)) };
  mergeInto(responses, schema.response ?? {});
  mergeInto(responses, errorResponses(pipelineErrors(schema)));
  const authenticated = auth !== undefined && auth.kind !== 'none';
  const headers = {
    ...RESPONSE_HEADERS,
    ...(authenticated ? RATE_LIMIT_HEADERS : {}),
    ...(takesIdempotencyKey(schema) ? IDEMPOTENCY_HEADERS : {}),
  };
  const operationId = (schema as { operationId?: string }).operationId;
  if (operationId !== undefined && codes) {
    const byStatus: Record<string, readonly ErrorCode[]> = {};
    for (const [status, response] of Object.entries(responses)) {
      if (isErrorResponse(response)) byStatus[status] = response[ERROR_CODES_KEY];
    }
    codes.set(operationId, byStatus);
  }
  for (const [status, response] of Object.entries(responses)) {
    const extra = status === '429' || status === '503' ? RETRY_HEADERS : status === '401' ? { 'www-authenticate': WWW_AUTHENTICATE_HEADER } : {};
    responses[status] = { ...(response as object), headers: { ...headers, ...extra } };
  }
  schema.response = responses;
  route.schema = schema;
}

interface OpenApiLike {
  paths?: Record<
    string,
    Record<
      string,
      {
        requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
        responses?: Record<string, { headers?: Record<string, { required?: boolean }> }>;
      }
    >
  >;
}

/** Headers every response of their kind carries; @fastify/swagger has no way to say so, so it is added here. */
const ALWAYS_SENT: Readonly<Record<string, (status: string) => boolean>> = {
  'x-request-id': () => true,
  'retry-after': (status) => status === '429' || status === '503',
  'www-authenticate': (status) => status === '401',
};

export function markRequiredHeaders<T extends OpenApiLike>(document: T): T {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          if (ALWAYS_SENT[name]?.(status)) header.required = true;
        }
      }
    }
  }
  return document;
}

/** The schema without `null` among the types at its root, or undefined when its root does not admit null. */
function withoutNull(schema: unknown): Record<string, unknown> | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as Record<string, unknown>;
  if (!Array.isArray(s.type) || !s.type.includes('null')) return undefined;
  const types = s.type.filter((type) => type !== 'null');
  return { ...s, type: types.length === 1 ? types[0] : types };
}

/**
 * @fastify/swagger marks every request body required. A body schema that admits null at its root is one that may
 * be left out (the framework validates an absent body as null): the document says the body is optional, and
 * shows its schema without null, since a JSON `null` body is refused like any body that is not an object
 * (`rejectNullBody` in validation.ts).
 */
export function markOptionalBodies<T extends OpenApiLike>(document: T): T {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const body = operation.requestBody;
      if (!body?.content) continue;
      for (const media of Object.values(body.content)) {
        const schema = withoutNull(media.schema);
        if (schema === undefined) continue;
        media.schema = schema;
        body.required = false;
      }
    }
  }
  return document;
}

interface OperationLike {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, Record<string, unknown>>; [key: string]: unknown }>;
}

/** Gives each error response of each operation its codes (`x-error-codes`) and one example per code. */
function addErrorExamples<T extends OpenApiLike>(document: T, codes: ErrorCodesByOperation): T {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item) as OperationLike[]) {
      const byStatus = operation.operationId === undefined ? undefined : codes.get(operation.operationId);
      for (const [status, list] of Object.entries(byStatus ?? {})) {
        const response = operation.responses?.[status];
        const media = response?.content?.['application/json'];
        if (!response || !media) continue;
        response[ERROR_CODES_KEY] = list;
        media.examples = errorExamples(list);
        delete (media.schema as Record<string, unknown> | undefined)?.description;
      }
    }
  }
  return document;
}

/**
 * The base address the document names: the configured public one, else the address the server listens on
 * (a wildcard address named as loopback), else the configured listen address.
 */
export function serverUrl(
  publicBaseUrl: string | undefined,
  listening: AddressInfo | string | null,
  configured: { readonly host: string; readonly port: number },
): string {
  if (publicBaseUrl !== undefined) return publicBaseUrl;
  const address = listening !== null && typeof listening === 'object' ? listening : null;
  const host = address?.address ?? configured.host;
  const port = address?.port ?? configured.port;
  const named = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${named.includes(':') ? `[${named}]` : named}:${port}`;
}

export interface OpenApiOptions {
  /** The base address the document names in `servers`; read when the document is first served. */
  readonly serverUrl: () => string;
  /** What the service sends rather than serves (the document's `webhooks`), listed under their own tag. */
  readonly webhooks?: {
    readonly tag: { readonly name: string; readonly description: string };
    readonly items: Record<string, unknown>;
  };
}

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  app.addSchema(ErrorResponseSchema);
  const codes: ErrorCodesByOperation = new Map();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'workspace-gateway',
        version: '1.0.0',
        description: API_DESCRIPTION,
        contact: { name: 'workspace-gateway maintainers' },
      },
      tags: [
        { name: 'metadata', description: 'Unauthenticated service metadata.' },
        { name: 'integration', description: 'Context of the calling API key.' },
        { name: 'staff', description: 'Staff self-service for the chat integration.' },
        { name: 'applications', description: 'Application forms and submissions (API keys), and their review by dashboard users.' },
        { name: 'activity', description: 'Shift tracking and activity reports.' },
        { name: 'console', description: 'Signing in to the console: sign-in links, their exchange for a dashboard token, the member.' },
        { name: 'discord', description: 'Discord, built in: the Interactions Endpoint URL of a Discord application.' },
        { name: 'roblox', description: 'What Roblox sends the gateway: right-to-erasure notifications, signed with the workspace\'s webhook secret.' },
        ...(options.webhooks ? [options.webhooks.tag] : []),
      ],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const document = documentObject.openapiObject as OpenApiLike & typeof documentObject.openapiObject;
      document.servers = [{ url: options.serverUrl(), description: SERVER_DESCRIPTION }];
      document.components = { ...document.components, responses: unmatchedResponses() };
      if (options.webhooks) Object.assign(document, { webhooks: options.webhooks.items });
      Object.assign(document, {
        [UNMATCHED_KEY]: {
          description: 'Answers to requests that match no operation of this document.',
          notFound: { $ref: '#/components/responses/NotFound' },
          methodNotAllowed: { $ref: '#/components/responses/MethodNotAllowed' },
        },
      });
      return markRequiredHeaders(markOptionalBodies(addErrorExamples(document, codes)));
    },
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  });
  app.addHook('onRoute', (route) => documentRoute(route, codes));
}
