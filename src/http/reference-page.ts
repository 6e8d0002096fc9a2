import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const REFERENCE_PAGE_PREFIX = '/docs';

/** The top bar's mark: the product's name, in place of the reference framework's logo. */
const LOGO_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="260" height="40" viewBox="0 0 260 40">',
  '<text x="0" y="28" font-family="sans-serif" font-size="24" font-weight="700" fill="#ffffff">',
  'workspace-gateway</text></svg>',
].join('');

/** The top bar keeps the product's name only: no field to load another document's address. */
const THEME_CSS = '.swagger-ui .topbar .download-url-wrapper { display: none; }';

/**
 * `GET /docs`: an interactive reference of the served OpenAPI document (Swagger UI). Every asset (script, style,
 * icon, the document itself at /docs/json) is served by the gateway, so the page works with no internet access;
 * the online validator badge is off. The top bar shows the product's name, not the framework's logo or a field to
 * load another document. Its routes are hidden from the document and need no credential.
 */
export async function registerReferencePage(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: REFERENCE_PAGE_PREFIX,
    validatorUrl: false,
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: REFERENCE_PAGE_PREFIX, target: '_self' },
    theme: { title: 'workspace-gateway API reference', css: [{ filename: 'theme.css', content: THEME_CSS }] },
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
