/** The kinds of authorization case a route's table is made of (cases.ts). */
import { expect } from 'vitest';
import type { ErrorCode } from '../../../src/shared/errors.ts';
import { newId } from '../../../src/shared/ids.ts';
import { GUILD_ID, SECOND_GUILD_ID } from '../../helpers/fixtures.ts';
import type { World } from '../world.ts';
import { key, type RequestParts } from './requests.ts';


export interface Case {
  readonly name: string;
  /** What differs from the route's valid request. */
  readonly with: (w: World) => RequestParts;
  readonly status: number;
  /** Required from 400 on. */
  readonly code?: ErrorCode;
  /** More checks on a 2xx body. */
  readonly check?: (body: Record<string, unknown>, w: World) => void;
}

export interface RouteCases {
  /** A request the legitimate caller makes successfully (the control case sends it as is). */
  readonly valid: (w: World) => RequestParts;
  readonly cases: readonly Case[];
}

export type Data = { data: Record<string, unknown> };
export const dataOf = (body: Record<string, unknown>) => (body as Data).data;

export const CONTROL: Case = { name: 'control: the legitimate caller succeeds', with: () => ({}), status: 200 };

export const notFound = (name: string, over: Case['with']): Case => ({ name, with: over, status: 404, code: 'not_found' });

export function scopeCase(secret: (w: World) => string, scope: string): Case {
  return { name: `a key without ${scope}`, with: (w) => ({ auth: key(secret(w)) }), status: 403, code: 'insufficient_scope' };
}

export const FEATURE_OFF: Case = {
  name: 'a key whose application has the activity feature off',
  with: (w) => ({ auth: key(w.featureOff.keys.test.secret) }),
  status: 403,
  code: 'feature_disabled',
};

export const PUBLIC: RouteCases = {
  valid: () => ({ auth: null }),
  cases: [
    CONTROL,
    { name: 'a revoked key changes nothing', with: (w) => ({ auth: key(w.a.keys.revoked.secret) }), status: 200 },
    { name: 'a forged token changes nothing', with: () => ({ auth: key('eyJhbGciOiJub25lIn0.e30.') }), status: 200 },
  ],
};

/** The chat routes (staff/me and the summary): the guild header is a consistency check, never a selector. */
export function chatCases(scope: string, scopeless: (w: World) => string, featureGated: boolean, extra: readonly Case[]): RouteCases {
  const chat = (guild: string, chatUserId: string | null | undefined) => ({
    'x-chat-guild-id': guild,
    'x-acting-chat-user-id': chatUserId ?? '',
  });
  return {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), headers: chat(GUILD_ID, w.a.staff.alice.chatUserId) }),
    cases: [
      CONTROL,
      {
        name: "B's key with A's guild and A's chat user: 403 guild_mismatch",
        with: (w) => ({ auth: key(w.b.keys.test.secret) }),
        status: 403,
        code: 'guild_mismatch',
      },
      notFound("B's key with B's guild and A's chat user", (w) => ({
        auth: key(w.b.keys.test.secret),
        headers: chat(SECOND_GUILD_ID, w.a.staff.alice.chatUserId),
      })),
      notFound("A's key with A's guild and B's chat user", (w) => ({ headers: chat(GUILD_ID, w.b.staff.alice.chatUserId) })),
      {
        name: "A's key with B's guild and B's chat user: the guild never selects B",
        with: (w) => ({ headers: chat(SECOND_GUILD_ID, w.b.staff.alice.chatUserId) }),
        status: 403,
        code: 'guild_mismatch',
      },
      {
        name: 'X-Service-Workspace-Id naming B is ignored: the profile is A\'s',
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
      },
      scopeCase(scopeless, scope),
      ...(featureGated ? [FEATURE_OFF] : []),
      ...extra,
    ],
  };
}

export function shiftWriteCases(target: (w: World) => string, body: unknown): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { shiftId: target(w) }, body }),
    cases: [
      notFound("a key of workspace B on A's shift", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('a key of another application of the same workspace', (w) => ({ auth: key(w.app2.secret) })),
      notFound('the live key of the same application on a test shift', (w) => ({ auth: key(w.a.keys.live.secret) })),
      notFound('the test key on a live shift', (w) => ({ path: { shiftId: w.shifts.aLive } })),
      notFound("A's key on B's shift", (w) => ({ path: { shiftId: w.shifts.bTest } })),
      notFound('the test key on a completed live shift', (w) => ({ path: { shiftId: w.shifts.aCompletedLive } })),
      notFound('a shift id in another letter case that does not exist', () => ({ path: { shiftId: newId().toUpperCase() } })),
      scopeCase((w) => w.a.keys.readOnly.secret, 'activity:write'),
      FEATURE_OFF,
      CONTROL,
    ],
  };
}

export type BatchResults = { results: { shiftId: string; shift?: unknown; error?: { code: string } }[] };

/** A batch heartbeat answers 200 with a result per shift: a shift the caller may not see is `not_found` there. */
export function itemNotFound(name: string, over: Case['with']): Case {
  return {
    name,
    with: over,
    status: 200,
    check: (body) => {
      const { results } = dataOf(body) as unknown as BatchResults;
      expect(results.map((r) => r.error?.code)).toEqual(results.map(() => 'not_found'));
    },
  };
}

/** The batch heartbeat on A's test shift: another tenant's key, or A's key on another's shift, finds nothing. */
export function batchHeartbeatCases(): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), body: { serverId: 'srv-1', shiftIds: [w.shifts.aTest] } }),
    cases: [
      itemNotFound("a key of workspace B on A's shift", (w) => ({ auth: key(w.b.keys.test.secret) })),
      itemNotFound('a key of another application of the same workspace', (w) => ({ auth: key(w.app2.secret) })),
      itemNotFound('the live key of the same application on a test shift', (w) => ({ auth: key(w.a.keys.live.secret) })),
      itemNotFound("A's key on B's shift", (w) => ({ body: { serverId: 'srv-1', shiftIds: [w.shifts.bTest] } })),
      scopeCase((w) => w.a.keys.readOnly.secret, 'activity:write'),
      FEATURE_OFF,
      {
        ...CONTROL,
        check: (body, w) => {
          const { results } = dataOf(body) as unknown as BatchResults;
          expect(results).toMatchObject([{ shiftId: w.shifts.aTest, shift: { id: w.shifts.aTest } }]);
        },
      },
    ],
  };
}

/**
 * The server stop, on a server none of the world's shifts run on for the control (the other routes' controls
 * need A's shifts active). Workspace B's key on A's server stops only B's own shift there, never one of A's.
 */
export function serverStopCases(): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { serverId: 'srv-idle' }, body: {} }),
    cases: [
      {
        name: "a key of workspace B on the server A's shifts run on stops none of A's",
        with: (w) => ({ auth: key(w.b.keys.test.secret), path: { serverId: 'srv-1' } }),
        status: 200,
        check: (body, w) => {
          const ids = (dataOf(body) as unknown as { shifts: { id: string }[] }).shifts.map((s) => s.id);
          for (const own of [w.shifts.aTest, w.shifts.aBob, w.shifts.aLive, w.shifts.aApp2]) expect(ids).not.toContain(own);
        },
      },
      scopeCase((w) => w.a.keys.readOnly.secret, 'activity:write'),
      FEATURE_OFF,
      {
        ...CONTROL,
        check: (body) => expect((dataOf(body) as unknown as { shifts: unknown[] }).shifts).toEqual([]),
      },
    ],
  };
}

export const APPLICATIONS_OFF: Case = {
  name: 'a key whose application has the applications feature off',
  with: (w) => ({ auth: key(w.applicationsOff.keys.test.secret) }),
  status: 403,
  code: 'feature_disabled',
};

export const formIds = (data: Record<string, unknown>) => (data.forms as Array<{ id: string }>).map((f) => f.id);
export const submissionIdsOf = (data: Record<string, unknown>) => (data.submissions as Array<{ id: string }>).map((s) => s.id);

/** A dashboard caller's X-Service-Workspace-Id naming a workspace it may not select, or nothing selectable. */
export const WORKSPACE_SELECTION_CASES: readonly Case[] = [
  {
    name: 'X-Service-Workspace-Id naming a workspace the caller is not a member of',
    with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
    status: 403,
    code: 'workspace_access_denied',
  },
  {
    name: 'X-Service-Workspace-Id naming no workspace at all',
    with: () => ({ headers: { 'x-service-workspace-id': newId() } }),
    status: 403,
    code: 'workspace_access_denied',
  },
  {
    name: 'a malformed X-Service-Workspace-Id',
    with: () => ({ headers: { 'x-service-workspace-id': "' or 1=1 --" } }),
    status: 400,
    code: 'validation_failed',
  },
];

/** A member of workspace A whose role grants no permission. */
export const WITHOUT_PERMISSIONS: Case = {
  name: 'a member of A without permissions',
  with: (w) => ({ auth: key(w.tokens.readonly) }),
  status: 403,
  code: 'permission_denied',
};

/** Review operations; `target` picks the submission of A the control acts on. */
export function reviewCases(target: (w: World) => string, body: unknown): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.tokens.reviewer), path: { submissionId: target(w) }, body }),
    cases: [
      notFound("a member of workspace B only, on A's submission", (w) => ({ auth: key(w.tokens.second) })),
      notFound("A's reviewer on B's submission", (w) => ({ path: { submissionId: w.submissions.b.submitted[0]! } })),
      notFound("a member of both workspaces selecting B, on A's submission", (w) => ({
        auth: key(w.tokens.multi),
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      ...WORKSPACE_SELECTION_CASES,
      {
        name: "X-Chat-Guild-Id of workspace A gives a member of workspace B nothing",
        with: (w) => ({ auth: key(w.tokens.second), headers: { 'x-chat-guild-id': GUILD_ID } }),
        status: 404,
        code: 'not_found',
      },
      WITHOUT_PERMISSIONS,
      CONTROL,
    ],
  };
}

export type StatsRow = { formId: string | null; submitted: number; underReview: number; accepted: number; rejected: number };

/**
 * The reviewers' reads of a whole workspace (queue, stats): `only` checks a 200 body holds workspace B's
 * submissions and nothing of A's; the control checks it holds nothing of B's.
 */
export function reviewReadCases(only: { a: (body: Record<string, unknown>, w: World) => void; b: (body: Record<string, unknown>, w: World) => void }): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.tokens.reviewer) }),
    cases: [
      { name: 'a member of workspace B only reads B, never A', with: (w) => ({ auth: key(w.tokens.second) }), status: 200, check: only.b },
      {
        name: 'a member of both workspaces selecting B reads only B',
        with: (w) => ({ auth: key(w.tokens.multi), headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
        check: only.b,
      },
      ...WORKSPACE_SELECTION_CASES,
      WITHOUT_PERMISSIONS,
      { ...CONTROL, check: only.a },
    ],
  };
}

export const queueIds = (body: Record<string, unknown>) => (dataOf(body).submissions as Array<{ id: string }>).map((s) => s.id);
export const QUEUE_CASES = reviewReadCases({
  a: (body, w) =>
    expect(queueIds(body).filter((id) => [...w.submissions.b.submitted, w.applicantSubmissions.b].includes(id))).toEqual([]),
  b: (body, w) => expect(new Set(queueIds(body))).toEqual(new Set([...w.submissions.b.submitted, w.applicantSubmissions.b])),
});
export const STATS_CASES = reviewReadCases({
  a: (body) => expect((dataOf(body).forms as StatsRow[]).length).toBeGreaterThan(0),
  b: (body, w) =>
    expect(dataOf(body).forms).toEqual([
      { formId: w.forms.b, formName: 'Moderator application', submitted: 1, underReview: 0, accepted: 0, rejected: 0 },
      { formId: null, formName: null, submitted: 2, underReview: 0, accepted: 0, rejected: 0 },
    ]),
});

export function onlyIds(ids: (w: World) => string[], list: (data: Record<string, unknown>) => string[]) {
  return (body: Record<string, unknown>, w: World) => expect(new Set(list(dataOf(body)))).toEqual(new Set(ids(w)));
}

export const staffIds = (data: Record<string, unknown>) => (data.entries as Array<{ staffId: string }>).map((e) => e.staffId);
export const shiftIds = (data: Record<string, unknown>) => (data.shifts as Array<{ id: string }>).map((s) => s.id);
export const aliceSeconds = (w: World) => (data: Record<string, unknown>) =>
  (data.entries as Array<{ staffId: string; totalSeconds: number }>).find((e) => e.staffId === w.a.ids.staff.alice)?.totalSeconds;

/** A manager's decision on one of A's inactivity notices (`target`), found as review operations find submissions. */
export function noticeDecisionCases(target: (w: World) => string): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.tokens.reviewer), path: { noticeId: target(w) }, body: {} }),
    cases: [
      notFound("a member of workspace B only, on A's notice", (w) => ({ auth: key(w.tokens.second) })),
      notFound("A's manager on B's notice", (w) => ({ path: { noticeId: w.notices.b } })),
      notFound("a member of both workspaces selecting B, on A's notice", (w) => ({
        auth: key(w.tokens.multi),
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      ...WORKSPACE_SELECTION_CASES,
      WITHOUT_PERMISSIONS,
      CONTROL,
    ],
  };
}
