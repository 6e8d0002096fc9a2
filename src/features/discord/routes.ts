import type { FastifyRequest } from 'fastify';
import { errorResponses } from '../../http/openapi.ts';
import { headerValue, type RouteAuth } from '../../auth/route-auth.ts';
import { BODY_LIMIT_BYTES } from '../../http/validation.ts';
import type { RouteApp } from '../../http/route-app.ts';
import { unauthenticated } from '../../shared/errors.ts';
import { InteractionBodySchema, InteractionHeadersSchema, InteractionParamsSchema, InteractionResponseSchema } from './schemas.ts';
import type { DiscordService } from './service.ts';

const NONE = { kind: 'none', database: true } as const satisfies RouteAuth;

export interface DiscordRoutesDeps {
  readonly service: DiscordService;
  /** The gateway's public address (console sign-in links). */
  readonly baseUrl: (request: FastifyRequest) => string;
}

/**
 * `POST /v1/discord/applications/{applicationId}/interactions`: the Interactions Endpoint URL of a Discord
 * application (docs/DISCORD.md). Registered in a scope of its own whose parser keeps the body as raw bytes, since
 * the signature covers exactly those.
 */
export function discordRoutes({ service, baseUrl }: DiscordRoutesDeps) {
  return async function register(app: RouteApp): Promise<void> {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));

    app.post(
      '/v1/discord/applications/:applicationId/interactions',
      {
        config: { auth: NONE },
        // The body is raw bytes checked by their signature; the schemas document Discord's shapes.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'handleDiscordInteraction',
          summary: 'Discord interactions: slash commands and buttons, without a bot to host',
          description:
            'The Interactions Endpoint URL to paste into a Discord application (docs/DISCORD.md). No API key or ' +
            'token: `X-Signature-Ed25519` must be the application\'s Ed25519 signature (its `publicKey` in the ' +
            'provisioning document) over `X-Signature-Timestamp` + the raw body, checked before anything else; a ' +
            'missing or wrong signature, an unknown application, or a timestamp more than 5 minutes from now is ' +
            '401 `unauthenticated`. Answers are Discord interaction responses, not this API\'s envelope: a PING ' +
            '(`type: 1`) gets `{ "type": 1 }`, a command `{ "type": 4, "data": { … } }`, a button press ' +
            '`{ "type": 7, "data": { … } }` (the message updated). Every message sets `allowed_mentions: { "parse": ' +
            '[] }`. The interaction\'s `guild_id` picks the workspace (`chat.guildId`) among those of the ' +
            'application, `member.user.id` the staff member or member (`chatUserId`). A refusal is an ephemeral ' +
            'sentence (`flags: 64`), with status 200. A write (`/loa request`, `/loa cancel`, a button) is ' +
            'idempotent on the interaction\'s `id`, and recorded with its command and event as the API\'s, in the ' +
            'workspace\'s Discord environment.',
          tags: ['discord'],
          headers: InteractionHeadersSchema,
          params: InteractionParamsSchema,
          body: InteractionBodySchema,
          response: {
            200: InteractionResponseSchema,
            ...errorResponses({ 400: ['validation_failed'], 401: ['unauthenticated'], 404: ['not_found'], 413: ['payload_too_large'], 415: ['unsupported_media_type'] }),
          },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const answer = await service.handle(
          request.params.applicationId,
          { signature: headerValue(request, 'x-signature-ed25519'), timestamp: headerValue(request, 'x-signature-timestamp'), body },
          { requestId: request.id, baseUrl: () => baseUrl(request) },
        );
        if (answer === null) throw unauthenticated('The interaction signature is missing, invalid or stale, or the application is unknown.');
        return answer;
      },
    );
  };
}
