import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { toIso, type Clock } from '../../clock.js';
import type { Config } from '../../config.js';

export const SERVICE_NAME = 'workspace-gateway';
export const API_VERSION = 'v1';

const HealthSchema = Type.Object({
  status: Type.Literal('ok'),
  service: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
});

const VersionSchema = Type.Object({
  service: Type.String(),
  apiVersion: Type.String({ description: 'Major version label of the business API.' }),
  build: Type.String({ description: 'Package version, plus the commit when known.' }),
  environment: Type.String({ description: 'Deployment name (GATEWAY_ENV).' }),
});

export interface MetadataDeps {
  readonly clock: Clock;
  readonly config: Pick<Config, 'buildId' | 'gatewayEnv'>;
}

export function metadataRoutes({ clock, config }: MetadataDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get(
      '/health',
      {
        config: { auth: { kind: 'none' } },
        schema: {
          operationId: 'getHealth',
          summary: 'Liveness of the service',
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
    app.get(
      '/openapi.json',
      {
        config: { auth: { kind: 'none' } },
        schema: {
          operationId: 'getOpenApiDocument',
          summary: 'This OpenAPI 3.1 description',
          tags: ['metadata'],
          response: {
            200: Type.Object({}, { additionalProperties: true, description: 'OpenAPI 3.1.0 document.' }),
          },
        },
      },
      async (_request, reply) => {
        document ??= JSON.stringify(app.swagger());
        return reply.type('application/json; charset=utf-8').send(document);
      },
    );
  };
}
