import { Type } from '@sinclair/typebox';
import { envelope, envelopeSchema } from '../../http/envelope.ts';
import { CorrelationIdHeader } from '../../http/headers.ts';
import { errorResponses } from '../../http/openapi.ts';
import type { RouteAuth } from '../../auth/route-auth.ts';
import { BODY_LIMIT_BYTES } from '../../http/validation.ts';
import type { RouteApp } from '../../http/route-app.ts';
import type { ErasureRequestService } from './erasure-requests.ts';

const NONE = { kind: 'none', correlationId: true, database: true } as const satisfies RouteAuth;

const AnswerSchema = {
  ...envelopeSchema(
    Type.Object(
      {
        notificationId: Type.String({ description: 'The notification\'s `NotificationId`.' }),
        outcome: Type.Union([Type.Literal('erased'), Type.Literal('erasing'), Type.Literal('ignored'), Type.Literal('repeated')], {
          description:
            '`erased` (done before this answer), `erasing` (a large workspace: answered first, finished in the ' +
            'background), `ignored` (another event type), `repeated` (a notification id seen before: nothing more erased).',
        }),
      },
      { additionalProperties: false },
    ),
  ),
  description: 'The notification was taken.',
  examples: [
    {
      data: { notificationId: '5f1c9e2a-7b3d-4c6e-8a9f-0b1c2d3e4f5a', outcome: 'erased' },
      meta: { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' },
    },
  ],
};

export function robloxRoutes({ erasures }: { readonly erasures: ErasureRequestService }) {
  return async function register(app: RouteApp): Promise<void> {
    // The signature covers the body's bytes as sent: this route reads them raw, whatever their type says.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));

    app.post(
      '/v1/roblox/workspaces/:workspaceId/erasure-requests',
      {
        config: { auth: NONE },
        schema: {
          operationId: 'takeRobloxErasureRequest',
          summary: 'Take Roblox\'s right-to-erasure webhook',
          description:
            'Configured as the experience\'s webhook in the Roblox Creator Dashboard (docs/ROBLOX.md). No credential: ' +
            'the header `roblox-signature: t=<unix seconds>,v1=<base64>` must carry HMAC-SHA256 with the workspace\'s ' +
            '`webhookSecret` over `<t>.` and the raw body, with `t` within 10 minutes of now; anything else is 401 ' +
            '(also for a workspace without a `webhookSecret`, or an unknown one). The body is Roblox\'s notification ' +
            '`{ NotificationId, EventType, EventTime, EventPayload: { UserId, GameIds } }`; a signed body that is not ' +
            'such JSON is 400. `RightToErasureRequest` erases the user\'s data in this workspace exactly as the ' +
            '`erase --game-user-id` command does; other types are acknowledged and ignored; a `NotificationId` seen ' +
            'before is acknowledged and erases nothing more. Answered within 5 s: an erasure still running after 4 s ' +
            'finishes in the background. Each handled notification is recorded (id, time, counts; never the user id).',
          tags: ['roblox'],
          headers: Type.Object({
            'roblox-signature': Type.Optional(
              Type.String({
                description: '`t=<unix seconds>,v1=<base64 signature>`.',
                examples: ['t=1773230400,v1=K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='],
              }),
            ),
            'x-correlation-id': CorrelationIdHeader,
          }),
          params: Type.Object({
            workspaceId: Type.String({ description: 'The workspace whose webhook this is.', examples: ['7a1f0c52-3b4d-4e6f-8a9b-0c1d2e3f4a01'] }),
          }),
          response: {
            200: AnswerSchema,
            // 404: a path that names no route (a workspace id with a slash in it, say).
            ...errorResponses({
              400: ['validation_failed', 'invalid_json'],
              401: ['unauthenticated'],
              404: ['not_found'],
              413: ['payload_too_large'],
              415: ['unsupported_media_type'],
            }),
          },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['roblox-signature'];
        const signature = Array.isArray(header) ? header[0] : header;
        return envelope(request, await erasures.handle(request.params.workspaceId, signature, raw));
      },
    );
  };
}
