import { expect } from 'vitest';
import { createGatewayClient } from '../../../clients/typescript/src/index.ts';
import { gatewayError, type CaseContext, type OperationCase } from './cases.ts';
import { WORLD } from './gateway.ts';

const ownerChat = { chatGuildId: WORLD.guildId, actingChatUserId: WORLD.ownerChatUserId };

/** A fresh sign-in link's code for the owner, asked for through the bot's key. */
async function ownerCode(ctx: CaseContext): Promise<string> {
  const { url } = (await ctx.client.createConsoleSignInLink(ownerChat)).body.data;
  const code = /#code=([0-9A-Za-z]+)$/.exec(url)?.[1];
  if (code === undefined) throw new Error(`no code in ${url}`);
  return code;
}

/** A success and an error case per operation of the console sign-in (docs/API.md, "Console sign-in"). */
export const CONSOLE_CASES: Record<string, OperationCase> = {
  createConsoleSignInLink: {
    success: async (ctx) => {
      const reply = await ctx.client.createConsoleSignInLink(ownerChat, { correlationId: 'review-1' });
      expect(reply.body.data.url).toMatch(new RegExp(`^${ctx.baseUrl}/console/sign-in#code=[0-9A-Za-z]{43}$`));
      expect(reply.body.meta.correlationId).toBe('review-1');
      expect(reply.idempotencyKey).toBeUndefined();
    },
    failure: async (ctx) => {
      // Alice is on the staff, not a member of the workspace.
      await gatewayError(ctx.client.createConsoleSignInLink({ ...ownerChat, actingChatUserId: WORLD.alice.chatUserId }), 404, 'not_found');
    },
  },
  createConsoleSession: {
    success: async (ctx) => {
      // No credential needed: a client without one (the stranger's unknown key is not looked at either).
      const session = (await ctx.stranger.createConsoleSession(await ownerCode(ctx))).body.data;
      expect(session.userId).toBe(WORLD.owner);
      const signedIn = createGatewayClient({ baseUrl: ctx.baseUrl, token: session.token });
      expect((await signedIn.getConsoleMe()).body.data.userId).toBe(WORLD.owner);
    },
    failure: async (ctx) => {
      const code = await ownerCode(ctx);
      await ctx.stranger.createConsoleSession(code);
      await gatewayError(ctx.stranger.createConsoleSession(code), 401, 'unauthenticated');
    },
  },
  getConsoleMe: {
    success: async ({ owner }) => {
      const me = (await owner.getConsoleMe()).body.data;
      expect(me.userId).toBe(WORLD.owner);
      expect(me.workspaces).toHaveLength(1);
      expect(me.workspaces[0]?.permissions).toContain('applications.decide');
    },
    failure: async ({ client }) => {
      await gatewayError(client.getConsoleMe(), 401, 'unauthenticated');
    },
  },
};
