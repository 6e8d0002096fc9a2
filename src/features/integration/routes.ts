import { envelope } from '../../http/envelope.ts';
import { errorResponses } from '../../http/openapi.ts';
import { apiKeyActor, headerValue } from '../../auth/route-auth.ts';
import type { RouteApp } from '../../http/route-app.ts';
import { IntegrationHeadersSchema, IntegrationResponseSchema } from './schemas.ts';
import type { IntegrationService } from './service.ts';

export function integrationRoutes(service: IntegrationService) {
  return async function register(app: RouteApp): Promise<void> {
    app.get(
      '/v1/integration',
      {
        config: { auth: { kind: 'apiKey', feature: 'activity' } },
        schema: {
          operationId: 'getIntegration',
          summary: 'Integration context of the calling API key',
          description:
            'Application, workspace, environment, scopes, feature flags and chat binding of the calling key. ' +
            'Any valid key may call it; the activity feature must be enabled. The workspace comes from the key; ' +
            'an `X-Chat-Guild-Id` header, when sent, must match the connected guild (403 `guild_mismatch`, or ' +
            '`chat_not_connected` when no guild is connected).',
          tags: ['integration'],
          headers: IntegrationHeadersSchema,
          response: {
            200: IntegrationResponseSchema,
            ...errorResponses({ 403: ['guild_mismatch', 'chat_not_connected'] }),
          },
        },
      },
      async (request) => {
        const data = await service.context(apiKeyActor(request), headerValue(request, 'x-chat-guild-id'));
        return envelope(request, data);
      },
    );
  };
}
