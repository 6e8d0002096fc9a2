import swagger from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { ERROR_SCHEMA_ID, ErrorResponseSchema } from './errors.js';
import type { RouteAuth } from './route-auth.js';

export const API_DESCRIPTION = `HTTP/JSON gateway of the workspace-management product.

* Business endpoints live under \`/v1\`; \`/health\`, \`/version\` and \`/openapi.json\` are unauthenticated.
* Every 4xx/5xx body is \`{ error: { code, message, requestId, details? } }\` with a stable \`code\`;
  every response carries \`X-Request-Id\` (\`req_\` + base62), equal to \`error.requestId\` (an idempotent replay
  returns the stored body of the first request, with that request's id).
* Request bodies are JSON (\`application/json\`), at most 64 KiB; unknown properties are rejected (400). No text
  value (body, path, query, header) may contain U+0000 (400).
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
  results are not kept.`;

export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'wsk_<test|live>_<secret>',
    description: 'Scoped workspace API key bound to one approved application, one workspace and one environment.',
  },
  dashboardToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token of a dashboard user (JWT; `sub` is the member user id, `exp` required).',
  },
} as const;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (validation_failed, invalid_json, idempotency key problems).',
  401: 'Missing, malformed, unknown, revoked or expired credential (unauthenticated).',
  403: 'The credential may not do this (scope, feature, permission, workspace, guild).',
  404: 'The resource does not exist or is not visible to this credential (not_found).',
  405: 'Method not allowed on this path.',
  409: 'Conflict with the current state or with a request in flight.',
  413: 'Body over 64 KiB (payload_too_large).',
  415: 'Body is not application/json (unsupported_media_type).',
  422: 'The request is well formed but cannot be applied.',
  429: 'Too many requests for this API key or user (rate_limited); see Retry-After and RateLimit.',
  500: 'Unexpected error (internal_error).',
};

const errorRef = Type.Unsafe<unknown>({ $ref: `${ERROR_SCHEMA_ID}#` });

/** `schema.response` entries for error statuses, all with the shared error body. */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const status of statuses) {
    out[status] = { ...errorRef, description: STATUS_TEXT[status] ?? 'Error.' };
  }
  return out;
}

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
  return headers?.properties?.['idempotency-key'] !== undefined;
}

function authStatuses(auth: RouteAuth | undefined): number[] {
  if (!auth || auth.kind === 'none') return [];
  return [400, 401, 403, 429];
}

/** Completes each route's OpenAPI entry from its declared auth: security and the statuses every such route has. */
export function documentRoute(route: RouteOptions): void {
  const config = (route.config ?? {}) as { auth?: RouteAuth };
  const schema = (route.schema ?? {}) as FastifySchema & {
    security?: unknown;
    response?: Record<string | number, unknown>;
    hide?: boolean;
  };
  if (schema.hide) return;
  const auth = config.auth;
  if (auth?.kind === 'apiKey') schema.security = [{ apiKey: [] }];
  else if (auth?.kind === 'user') schema.security = [{ dashboardToken: [] }];
  else schema.security = [];
  const responses: Record<string | number, unknown> = {
    ...errorResponses(...authStatuses(auth), 500),
    ...(schema.response ?? {}),
  };
  const authenticated = auth !== undefined && auth.kind !== 'none';
  const headers = {
    ...RESPONSE_HEADERS,
    ...(authenticated ? RATE_LIMIT_HEADERS : {}),
    ...(takesIdempotencyKey(schema) ? IDEMPOTENCY_HEADERS : {}),
  };
  for (const [status, response] of Object.entries(responses)) {
    responses[status] = { ...(response as object), headers: status === '429' ? { ...headers, ...RETRY_HEADERS } : headers };
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
  'retry-after': (status) => status === '429',
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

function allowsNull(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(allowsNull);
}

/**
 * @fastify/swagger marks every request body required; a body schema that admits null (no body at all) is
 * optional, and the document says so.
 */
export function markOptionalBodies<T extends OpenApiLike>(document: T): T {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const body = operation.requestBody;
      if (!body?.content) continue;
      if (Object.values(body.content).some((media) => allowsNull(media.schema))) body.required = false;
    }
  }
  return document;
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorResponseSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'workspace-gateway', version: '1.0.0', description: API_DESCRIPTION },
      tags: [
        { name: 'metadata', description: 'Unauthenticated service metadata.' },
        { name: 'integration', description: 'Context of the calling API key.' },
        { name: 'staff', description: 'Staff self-service for the chat integration.' },
        { name: 'applications', description: 'Application review by dashboard users.' },
        { name: 'activity', description: 'Shift tracking and activity reports.' },
      ],
      servers: [{ url: '/', description: 'This gateway. Production and staging have separate base addresses.' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? markRequiredHeaders(
            markOptionalBodies(documentObject.openapiObject as OpenApiLike & typeof documentObject.openapiObject),
          )
        : documentObject.swaggerObject,
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  });
  app.addHook('onRoute', documentRoute);
}
