/**
 * The console's staff side (docs/API.md, "Staff in the console"): the roster and a staff member's page for any
 * member of the workspace; the leaderboard and the active list also for a member's token.
 */
import { expect } from 'vitest';
import type { World } from '../world.ts';
import { CONTROL, dataOf, notFound, WORKSPACE_SELECTION_CASES, type Case, type RouteCases } from './case-builders.ts';
import { key } from './requests.ts';

const rosterIds = (body: Record<string, unknown>) => (dataOf(body).staff as Array<{ id: string }>).map((s) => s.id);

/** The world's reviewers are members of more than one workspace: every request names A (or B) explicitly. */
const inA = (w: World) => ({ 'x-service-workspace-id': w.a.ids.workspaceId });
const inB = (w: World) => ({ 'x-service-workspace-id': w.b.ids.workspaceId });

export const STAFF_CASES: Readonly<Record<string, RouteCases>> = {
  'GET /v1/staff': {
    valid: (w) => ({ auth: key(w.tokens.reviewer), headers: inA(w) }),
    cases: [
      { ...CONTROL, check: (body, w) => expect(rosterIds(body)).toEqual([w.a.ids.staff.alice, w.a.ids.staff.bob]) },
      {
        name: 'a member of workspace B only reads B, never A',
        with: (w) => ({ auth: key(w.tokens.second), headers: inB(w) }),
        status: 200,
        check: (body, w) => expect(rosterIds(body)).toEqual([w.b.ids.staff.alice, w.b.ids.staff.bob]),
      },
      {
        name: 'a member of both workspaces selecting B reads only B',
        with: (w) => ({ auth: key(w.tokens.multi), headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
        check: (body, w) => expect(rosterIds(body)).toEqual([w.b.ids.staff.alice, w.b.ids.staff.bob]),
      },
      ...WORKSPACE_SELECTION_CASES,
      { name: 'a member of A without permissions reads it all the same', with: (w) => ({ auth: key(w.tokens.readonly) }), status: 200 },
    ],
  },
  'GET /v1/staff/{staffId}': {
    valid: (w) => ({ auth: key(w.tokens.reviewer), headers: inA(w), path: { staffId: w.a.ids.staff.alice } }),
    cases: [
      { ...CONTROL, check: (body, w) => expect((dataOf(body).staff as { id: string }).id).toBe(w.a.ids.staff.alice) },
      notFound("a member of workspace B only, on A's staff member", (w) => ({ auth: key(w.tokens.second), headers: inB(w) })),
      notFound("A's member on B's staff member", (w) => ({ path: { staffId: w.b.ids.staff.alice } })),
      notFound("a member of both workspaces selecting B, on A's staff member", (w) => ({
        auth: key(w.tokens.multi),
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      ...WORKSPACE_SELECTION_CASES,
      { name: 'a member of A without permissions reads it all the same', with: (w) => ({ auth: key(w.tokens.readonly) }), status: 200 },
    ],
  },
};

/** A member's token on the leaderboard and the active list: their workspace only, never B's. */
export const MEMBER_READ_CASES: Readonly<Record<'GET /v1/activity/leaderboard' | 'GET /v1/activity/shifts/active', Case>> = {
  'GET /v1/activity/leaderboard': {
    name: "a member of workspace B only ranks B's active staff",
    with: (w) => ({ auth: key(w.tokens.second), headers: inB(w) }),
    status: 200,
    check: (body, w) =>
      expect((dataOf(body).entries as Array<{ staffId: string }>).map((e) => e.staffId).sort()).toEqual([w.b.ids.staff.alice, w.b.ids.staff.bob].sort()),
  },
  'GET /v1/activity/shifts/active': {
    name: "a member of workspace B only lists B's test shifts when asking for test",
    with: (w) => ({ auth: key(w.tokens.second), headers: inB(w), query: 'environment=test' }),
    status: 200,
    check: (body, w) => expect((dataOf(body).shifts as Array<{ id: string }>).map((s) => s.id)).toEqual([w.shifts.bTest]),
  },
};
