import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RouteApp } from '../../http/route-app.ts';
import { toIso, type Clock } from '../../shared/clock.ts';
import type { Config } from '../../shared/config.ts';

export const SERVICE_NAME = 'workspace-gateway';
export const API_VERSION = 'v1';

const HealthSchema = Type.Object(
  {
    status: Type.Literal('ok'),
    service: Type.String(),
    timestamp: Type.String({ format: 'date-time', description: 'Server clock.' }),
  },
  {
    description: 'The process is up.',
    examples: [{ status: 'ok', service: 'workspace-gateway', timestamp: '2026-03-11T12:00:00.000Z' }],
  },
);

const VersionSchema = Type.Object(
  {
    service: Type.String(),
    apiVersion: Type.String({ description: 'Major version label of the business API.' }),
    build: Type.String({ description: 'Package version, plus the commit when known.' }),
    environment: Type.String({ description: 'Deployment name (GATEWAY_ENV).' }),
  },
  {
    description: 'What is running here.',
    examples: [{ service: 'workspace-gateway', apiVersion: 'v1', build: '1.0.0+ac0bd29', environment: 'production' }],
  },
);

export interface MetadataDeps {
  readonly clock: Clock;
  readonly config: Pick<Config, 'buildId' | 'gatewayEnv'>;
  /**
   * The base address the request was sent to, when it is to replace the document's `servers` address (behind a
   * trusted proxy, without PUBLIC_BASE_URL); undefined keeps the document's own.
   */
  readonly requestBaseUrl?: (request: FastifyRequest) => string | undefined;
}

/** Stands for the `servers` address in the document's text, replaced per request (see requestBaseUrl). */
const SERVER_URL_SLOT = 'urn:workspace-gateway:server-url';

export function metadataRoutes({ clock, config, requestBaseUrl }: MetadataDeps) {
  return async function register(app: RouteApp): Promise<void> {
    app.get(
      '/health',
      {
        config: { auth: { kind: 'none' } },
        schema: {
          operationId: 'getHealth',
          summary: 'Liveness of the service',
          description:
            'Answers 200 while the process runs; it touches no database, so it is a liveness check, not a ' +
            'readiness check. No authentication.',
          tags: ['metadata'],
          response: { 200: HealthSchema },
        },
      },
      async () => ({ status: 'ok' as const, service: SERVICE_NAME, timestamp: toIso(clock.now()) }),
    );

    app.get(
      '/version',
      {
        config: { auth: { kind: 'none' } },
        schema: {
          operationId: 'getVersion',
          summary: 'Service, API version, build and deployment',
          description: 'The API version label, the build (package version and commit) and the deployment name. No authentication.',
          tags: ['metadata'],
          response: { 200: VersionSchema },
        },
      },
      async () => ({
        service: SERVICE_NAME,
        apiVersion: API_VERSION,
        build: config.buildId,
        environment: config.gatewayEnv,
      }),
    );

    let document: string | undefined;
    let documentAround: readonly [string, string] | undefined;
    app.get(
      '/openapi.json',
      {
        config: { auth: { kind: 'none' } },
        schema: {
          operationId: 'getOpenApiDocument',
          summary: 'This OpenAPI 3.1 description',
          description:
            'The OpenAPI 3.1 document of this API, generated from the route schemas the service validates with. ' +
            'No authentication. `GET /docs` shows it as an interactive reference page.',
          tags: ['metadata'],
          response: {
            200: Type.Object(
              {},
              {
                additionalProperties: true,
                description: 'OpenAPI 3.1.0 document.',
                examples: [{ openapi: '3.1.0', info: { title: 'workspace-gateway', version: '1.0.0' }, paths: {} }],
              },
            ),
          },
        },
      },
      async (request, reply) => {
        const base = requestBaseUrl?.(request);
        if (base !== undefined) {
          documentAround ??= documentAroundServerUrl(app.swagger() as OpenApiServers);
          return reply.type('application/json; charset=utf-8').send(documentAround.join(JSON.stringify(base)));
        }
        document ??= JSON.stringify(app.swagger());
        return reply.type('application/json; charset=utf-8').send(document);
      },
    );
  };
}

interface OpenApiServers {
  readonly servers?: readonly { readonly url: string }[];
}

/** The document's text before and after its `servers` address (a JSON string), to serve it with another address. */
function documentAroundServerUrl(document: OpenApiServers): readonly [string, string] {
  const [first, ...others] = document.servers ?? [];
  const text = JSON.stringify({ ...document, servers: [{ ...first, url: SERVER_URL_SLOT }, ...others] });
  const [before = '', after = ''] = text.split(JSON.stringify(SERVER_URL_SLOT));
  return [before, after];
}
