/** The console sign-in's authorization cases: links (a chat user of the key's workspace), the exchange, the member. */
import { expect } from 'vitest';
import { GUILD_ID, SECOND_GUILD_ID } from '../../helpers/fixtures.ts';
import type { World } from '../world.ts';
import { CONTROL, dataOf, notFound, scopeCase, type RouteCases } from './case-builders.ts';
import { key } from './requests.ts';

const chat = (guild: string, chatUserId: string | null | undefined) => ({
  'x-chat-guild-id': guild,
  'x-acting-chat-user-id': chatUserId ?? '',
});
const workspaceIds = (body: Record<string, unknown>) => (dataOf(body).workspaces as Array<{ id: string }>).map((w) => w.id);

export const CONSOLE_CASES: Readonly<Record<string, RouteCases>> = {
  'POST /v1/console/sign-in-links': {
    valid: (w: World) => ({ auth: key(w.a.keys.test.secret), headers: chat(GUILD_ID, w.console.reviewerChatUserId) }),
    cases: [
      CONTROL,
      {
        name: "B's key with A's guild and A's reviewer: 403 guild_mismatch",
        with: (w) => ({ auth: key(w.b.keys.test.secret) }),
        status: 403,
        code: 'guild_mismatch',
      },
      {
        name: "A's key with B's guild and B's reviewer: the guild never selects B",
        with: () => ({ headers: { 'x-chat-guild-id': SECOND_GUILD_ID } }),
        status: 403,
        code: 'guild_mismatch',
      },
      {
        name: "B's key with B's guild: B's member of that chat user id, not A's",
        with: (w) => ({ auth: key(w.b.keys.test.secret), headers: chat(SECOND_GUILD_ID, w.console.reviewerChatUserId) }),
        status: 200,
      },
      notFound("A's key with a staff member of A who is no member", (w) => ({ headers: chat(GUILD_ID, w.a.staff.alice.chatUserId) })),
      scopeCase((w) => w.a.keys.readOnly.secret, 'console:link'),
    ],
  },

  'POST /v1/console/sessions': {
    valid: (w: World) => ({ auth: null, body: { code: w.console.code } }),
    cases: [
      { ...CONTROL, check: (body) => expect(dataOf(body).userId).toBe('user-reviewer') },
      {
        name: "a used code stays refused with workspace B's key beside it",
        with: (w) => ({ auth: key(w.b.keys.test.secret), body: { code: w.console.usedCode } }),
        status: 401,
        code: 'unauthenticated',
      },
      {
        name: "a dashboard token of workspace B does not stand for a code",
        with: (w) => ({ auth: key(w.tokens.second), body: { code: 'A'.repeat(43) } }),
        status: 401,
        code: 'unauthenticated',
      },
    ],
  },

  'GET /v1/console/me': {
    valid: (w: World) => ({ auth: key(w.tokens.reviewer) }),
    cases: [
      {
        ...CONTROL,
        name: "control: A's reviewer sees A among their workspaces, never B",
        check: (body, w) => {
          expect(workspaceIds(body)).toContain(w.a.ids.workspaceId);
          expect(workspaceIds(body)).not.toContain(w.b.ids.workspaceId);
        },
      },
      {
        name: "B's reviewer sees workspace B only",
        with: (w) => ({ auth: key(w.tokens.second) }),
        status: 200,
        check: (body, w) => expect(workspaceIds(body)).toEqual([w.b.ids.workspaceId]),
      },
      {
        name: "A's reviewer naming workspace B: 403 workspace_access_denied",
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 403,
        code: 'workspace_access_denied',
      },
    ],
  },
};
