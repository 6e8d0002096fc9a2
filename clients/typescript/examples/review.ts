// The chat bot's `/review` command: a reviewer or manager asks for a console sign-in link, and the bot answers
// privately (an ephemeral message, which only they see), since whoever holds the link signs in as them until it
// is used or expires. The member is found by their chat account: a workspace member whose `chatUserId` is theirs
// (the provisioning document's `members`). The bot's key needs `console:link` (docs/API.md, "Console sign-in").
//
//   /review
import { GatewayError, type GatewayClient } from '@workspace-gateway/client';
import type { CommandContext } from './chat-bot.ts';

/** An answer only the member who ran the command sees (Discord: an ephemeral interaction response). */
export interface PrivateReply {
  readonly content: string;
  readonly ephemeral: true;
}

const time = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short', timeZone: 'UTC' });
const privately = (content: string): PrivateReply => ({ content, ephemeral: true });

/** `/review`: a one-time console sign-in link for the member who ran it, or why there is none, privately. */
export async function reviewCommand(gateway: GatewayClient, ctx: CommandContext): Promise<PrivateReply> {
  const chat = { chatGuildId: ctx.guildId, actingChatUserId: ctx.chatUserId };
  try {
    // No Idempotency-Key: a command delivered twice makes two links, each usable once on its own.
    const reply = await gateway.createConsoleSignInLink(chat, ctx.commandId ? { correlationId: ctx.commandId } : {});
    const { url, expiresAt } = reply.body.data;
    return privately(
      `Your console sign-in link: ${url}\nIt works once, until ${time.format(Date.parse(expiresAt))} UTC. Do not share it: it signs you in.`,
    );
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    switch (error.code) {
      case 'not_found':
        return privately('Your chat account is not linked to a reviewer or manager of this community. Ask an administrator.');
      case 'chat_not_connected':
      case 'guild_mismatch':
        return privately('This server is not linked to a workspace.');
      case 'insufficient_scope':
        return privately('This bot may not make sign-in links (its key needs `console:link`). Tell an administrator.');
      case 'unauthenticated':
        return privately('This bot is not connected to the gateway any more (its key was refused). Tell an administrator.');
      case 'rate_limited':
        return privately(`Too many requests right now; try again in ${error.retryAfterSeconds ?? 60} s.`);
      default:
        return privately(`Something went wrong (${error.code}, request ${error.requestId ?? 'unknown'}).`);
    }
  }
}
