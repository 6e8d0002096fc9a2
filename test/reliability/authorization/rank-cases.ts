/** Rank changes (dashboard members) and Roblox's erasure requests (signed by Roblox, no credential). */
import { expect } from 'vitest';
import { randomBase62 } from '../../../src/shared/ids.ts';
import type { World } from '../world.ts';
import { CONTROL, dataOf, notFound, WITHOUT_PERMISSIONS, WORKSPACE_SELECTION_CASES, type RouteCases } from './case-builders.ts';
import { key } from './requests.ts';

/** The workspaces have no ranks: any name is a rank, a fresh one each time (never the current one). */
const freshRank = () => ({ rank: `Rank ${randomBase62(8)}` });

const staffCases = (body: () => unknown): RouteCases => ({
  valid: (w: World) => ({ auth: key(w.tokens.reviewer), path: { staffId: w.a.ids.staff.alice }, body: body() }),
  cases: [
    notFound("a member of workspace B only, on A's staff member", (w) => ({ auth: key(w.tokens.second) })),
    notFound("A's member on B's staff member", (w) => ({ path: { staffId: w.b.ids.staff.alice } })),
    notFound("a member of both workspaces selecting B, on A's staff member", (w) => ({
      auth: key(w.tokens.multi),
      headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
    })),
    ...WORKSPACE_SELECTION_CASES,
  ],
});

const change = staffCases(freshRank);
const list = staffCases(() => undefined);

export const RANK_CASES: Readonly<Record<string, RouteCases>> = {
  'POST /v1/staff/{staffId}/rank': { ...change, cases: [...change.cases, WITHOUT_PERMISSIONS, CONTROL] },
  'GET /v1/staff/{staffId}/rank-changes': {
    ...list,
    cases: [
      ...list.cases,
      {
        name: 'a member of A without permissions reads them',
        with: (w) => ({ auth: key(w.tokens.readonly) }),
        status: 200,
        check: (body) => expect(Array.isArray(dataOf(body).changes)).toBe(true),
      },
      CONTROL,
    ],
  },
  'POST /v1/roblox/workspaces/{workspaceId}/erasure-requests': {
    valid: (w) => ({
      auth: null,
      path: { workspaceId: w.a.ids.workspaceId },
      body: { NotificationId: 'n-1', EventType: 'RightToErasureRequest', EventPayload: { UserId: 1001 } },
    }),
    cases: [
      { name: 'unsigned: 401', with: () => ({}), status: 401, code: 'unauthenticated' },
      {
        name: "A's reviewer token does not stand for Roblox's signature",
        with: (w) => ({ auth: key(w.tokens.reviewer) }),
        status: 401,
        code: 'unauthenticated',
      },
      {
        name: "A's API key does not stand for Roblox's signature",
        with: (w) => ({ auth: key(w.a.keys.test.secret) }),
        status: 401,
        code: 'unauthenticated',
      },
    ],
  },
};
