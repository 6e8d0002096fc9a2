import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const REFERENCE_PAGE_PREFIX = '/docs';

/**
 * `GET /docs`: an interactive reference of the served OpenAPI document (Swagger UI). Every asset (script, style,
 * icon, the document itself at /docs/json) is served by the gateway, so the page works with no internet access;
 * the online validator badge is off. Its routes are hidden from the document and need no credential.
 */
export async function registerReferencePage(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: REFERENCE_PAGE_PREFIX,
    validatorUrl: false,
    theme: { title: 'workspace-gateway API reference' },
    uiConfig: {
      docExpansion: 'list',
      deepLinking: true,
      displayOperationId: true,
      displayRequestDuration: true,
      defaultModelsExpandDepth: 0,
      tryItOutEnabled: false,
    },
  });
}
