import { envelope } from '../../http/envelope.ts';
import { errorResponses } from '../../http/openapi.ts';
import { apiKeyActor, chatContext } from '../../auth/route-auth.ts';
import type { RouteApp } from '../../http/route-app.ts';
import { StaffMeHeadersSchema, StaffMeResponseSchema } from './schemas.ts';
import type { StaffService } from './service.ts';

export function staffRoutes(service: StaffService) {
  return async function register(app: RouteApp): Promise<void> {
    app.get(
      '/v1/staff/me',
      {
        config: { auth: { kind: 'apiKey', scope: 'staff:read' } },
        schema: {
          operationId: 'getStaffMe',
          summary: 'Staff profile of the invoking chat user',
          description:
            'Resolves `X-Acting-Chat-User-Id` to a staff profile of the API key\'s workspace. Scope `staff:read`. ' +
            'Both chat headers are required (400); the guild must be the connected one (403 `guild_mismatch` / ' +
            '`chat_not_connected`); a chat user with no staff profile is 404. Inactive staff still get their profile.',
          tags: ['staff'],
          headers: StaffMeHeadersSchema,
          response: { 200: StaffMeResponseSchema, ...errorResponses({ 403: ['guild_mismatch', 'chat_not_connected'], 404: ['not_found'] }) },
        },
      },
      async (request) => envelope(request, await service.me(apiKeyActor(request), chatContext(request))),
    );
  };
}
