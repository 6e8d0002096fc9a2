import type { Client } from 'openapi-fetch';
import type { CallOptions, ChatContext } from './call-options.ts';
import type { paths } from './openapi.ts';
import { settle, type Reply, type SuccessBody } from './reply.ts';

/** The console's sign-in operations, which take no Idempotency-Key: each call makes a new link or spends a code. */
export const SIGN_IN_PATHS: ReadonlySet<string> = new Set(['/v1/console/sign-in-links', '/v1/console/sessions']);

/**
 * Signing in to the console (docs/API.md, "Console sign-in"). A chat bot asks for a one-time link for the acting
 * chat user (`console:link`) and sends it to them privately; the console exchanges the link's code for a dashboard
 * token (no credential), then reads who signed in and their workspaces with that token.
 */
export function consoleOperations(api: Client<paths>) {
  return {
    /** A new sign-in link for the member whose chat user id is the acting chat user (404 for none). */
    createConsoleSignInLink: (chat: ChatContext, o: CallOptions = {}): Promise<Reply<SuccessBody<'createConsoleSignInLink'>>> =>
      settle(
        api.POST('/v1/console/sign-in-links', {
          params: {
            header: {
              'x-chat-guild-id': chat.chatGuildId,
              'x-acting-chat-user-id': chat.actingChatUserId,
              'x-correlation-id': o.correlationId,
            },
          },
          signal: o.signal,
        }),
      ),
    /** The dashboard token for a link's code (what follows `#code=`); 401 for an unknown, used or expired one. */
    createConsoleSession: (code: string, o: CallOptions = {}): Promise<Reply<SuccessBody<'createConsoleSession'>>> =>
      settle(
        api.POST('/v1/console/sessions', {
          params: { header: { 'x-correlation-id': o.correlationId } },
          body: { code },
          signal: o.signal,
        }),
      ),
    /** The signed-in member and their workspaces, each with the member's permissions there. */
    getConsoleMe: (o: CallOptions = {}): Promise<Reply<SuccessBody<'getConsoleMe'>>> =>
      settle(api.GET('/v1/console/me', { params: { header: { 'x-correlation-id': o.correlationId } }, signal: o.signal })),
  };
}
