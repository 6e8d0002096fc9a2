import type { FastifyRequest } from 'fastify';
import { envelope } from '../../http/envelope.ts';
import type { FailureLimiter } from '../../http/failure-limit.ts';
import { errorResponses } from '../../http/openapi.ts';
import { apiKeyActor, chatContext, userActor, type RouteAuth } from '../../auth/route-auth.ts';
import type { RouteApp } from '../../http/route-app.ts';
import { unauthenticated } from '../../shared/errors.ts';
import {
  ConsoleMeHeadersSchema,
  ConsoleMeResponseSchema,
  SessionBodySchema,
  SessionHeadersSchema,
  SessionResponseSchema,
  SignInLinkBodySchema,
  SignInLinkHeadersSchema,
  SignInLinkResponseSchema,
} from './schemas.ts';
import type { ConsoleService } from './service.ts';

/** Failed code exchanges allowed per client address and window before 429 `rate_limited` (docs/API.md). */
export const SIGN_IN_FAILURES_MAX = 10;
export const SIGN_IN_FAILURES_WINDOW_SECONDS = 60;

const LINK = { kind: 'apiKey', scope: 'console:link' } as const satisfies RouteAuth;
const NONE = { kind: 'none', correlationId: true, database: true } as const satisfies RouteAuth;
const USER = { kind: 'user' } as const satisfies RouteAuth;

export interface ConsoleRoutesDeps {
  readonly service: ConsoleService;
  /** Counts failed exchanges per client address (SIGN_IN_FAILURES_MAX per SIGN_IN_FAILURES_WINDOW_SECONDS). */
  readonly failures: FailureLimiter;
  /** The base address a link names: PUBLIC_BASE_URL, else the one the request reached (src/app.ts). */
  readonly baseUrl: (request: FastifyRequest) => string;
}

export function consoleRoutes({ service, failures, baseUrl }: ConsoleRoutesDeps) {
  return async function register(app: RouteApp): Promise<void> {
    const tags = ['console'];

    app.post(
      '/v1/console/sign-in-links',
      {
        config: { auth: LINK },
        schema: {
          operationId: 'createConsoleSignInLink',
          summary: 'Make a one-time console sign-in link for the acting chat user',
          description:
            'Scope `console:link`. The acting chat user is identified as on `GET /v1/staff/me`: both chat headers ' +
            'are required (400), the guild must be the connected one (403 `guild_mismatch` / ' +
            '`chat_not_connected`). The member of the key\'s workspace whose `chatUserId` (provisioning) is the ' +
            'acting chat user gets the link; none is 404 `not_found`. No body, or `{}`. No `Idempotency-Key`: ' +
            'every call makes a new link (a retry makes another; each works on its own). The link signs the ' +
            'member in once, within 10 minutes; its code is stored only as a SHA-256 hash. A chat bot sends it to ' +
            'the member privately (an ephemeral message or a direct message), never to a channel.',
          tags,
          headers: SignInLinkHeadersSchema,
          body: SignInLinkBodySchema,
          response: {
            200: SignInLinkResponseSchema,
            ...errorResponses({
              403: ['guild_mismatch', 'chat_not_connected'],
              404: ['not_found'],
            }),
          },
        },
      },
      async (request) =>
        envelope(request, await service.linkForChatUser(apiKeyActor(request), chatContext(request), baseUrl(request))),
    );

    app.post(
      '/v1/console/sessions',
      {
        config: { auth: NONE },
        schema: {
          operationId: 'createConsoleSession',
          summary: 'Exchange a sign-in link\'s code for a dashboard token',
          description:
            'No credential: the code is the credential. A code is usable once, within 10 minutes of its link: an ' +
            'unknown, used or expired code is 401 `unauthenticated`, the same answer for all three, and of two ' +
            'exchanges of one code at once exactly one gets a token. The token is a dashboard token signed by the ' +
            'gateway (`sub` = the member\'s `userId`, valid 8 hours) that every dashboard operation accepts like an ' +
            `identity provider's. Failed exchanges are counted per client address: after ${SIGN_IN_FAILURES_MAX} ` +
            `in a ${SIGN_IN_FAILURES_WINDOW_SECONDS}-second window (fixed on the clock), every exchange from that ` +
            'address is 429 `rate_limited` with `Retry-After` until the window ends, a valid code included. ' +
            'Not subject to the per-credential rate limit.',
          tags,
          headers: SessionHeadersSchema,
          body: SessionBodySchema,
          response: {
            200: SessionResponseSchema,
            ...errorResponses({
              400: ['validation_failed', 'invalid_json'],
              401: ['unauthenticated'],
              429: ['rate_limited'],
            }),
          },
        },
      },
      async (request, reply) => {
        await failures.check(request, reply);
        const issued = await service.exchange(request.body.code);
        if (issued === undefined) {
          await failures.fail(request);
          throw unauthenticated('The sign-in code is unknown, used or expired; ask for a new link.');
        }
        return envelope(request, { token: issued.token, expiresAt: issued.expiresAt, userId: issued.userId });
      },
    );

    app.get(
      '/v1/console/me',
      {
        config: { auth: USER },
        schema: {
          operationId: 'getConsoleMe',
          summary: 'The signed-in member and their workspaces',
          description:
            'Dashboard token, the gateway\'s own (a console sign-in, `tokens create`) or the identity provider\'s. ' +
            'The caller\'s `userId` and the workspaces they are a member of, each with their permissions there and ' +
            'its ranks (name, order, whether assignable), ordered by name then id (empty when none), so a page ' +
            'offers only what the member may do. ' +
            '`X-Service-Workspace-Id` is not needed (when sent, it must name one of them: 403 ' +
            '`workspace_access_denied`).',
          tags,
          headers: ConsoleMeHeadersSchema,
          response: { 200: ConsoleMeResponseSchema },
        },
      },
      async (request) => envelope(request, await service.me(userActor(request))),
    );
  };
}
