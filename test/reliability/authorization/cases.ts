/** The authorization table: for every served route (keyed `METHOD /path/{param}`), its valid request and its cases. */
import { expect } from 'vitest';
import { GUILD_ID, SECOND_GUILD_ID, UNIVERSE_ID } from '../../helpers/fixtures.ts';
import {
  aliceSeconds,
  APPLICATIONS_OFF,
  batchHeartbeatCases,
  chatCases,
  CONTROL,
  dataOf,
  FEATURE_OFF,
  formIds,
  notFound,
  noticeDecisionCases,
  onlyIds,
  PUBLIC,
  QUEUE_CASES,
  reviewCases,
  reviewReadCases,
  scopeCase,
  serverStopCases,
  shiftIds,
  shiftWriteCases,
  staffIds,
  STATS_CASES,
  submissionIdsOf,
  type RouteCases,
} from './case-builders.ts';
import { key } from './requests.ts';
import { CONSOLE_CASES } from './console-cases.ts';
import { DISCORD_CASES } from './discord-cases.ts';
import { RANK_CASES } from './rank-cases.ts';
import { MEMBER_READ_CASES, STAFF_CASES } from './staff-cases.ts';

const chat = (guild: string, chatUserId: string | null | undefined) => ({
  'x-chat-guild-id': guild,
  'x-acting-chat-user-id': chatUserId ?? '',
});
const noticeIds = (data: Record<string, unknown>) => (data.notices as Array<{ id: string }>).map((n) => n.id);
const askFor = (day: number) => ({ startsAt: `2026-05-${day}T00:00:00Z`, endsAt: `2026-05-${day + 1}T00:00:00Z`, reason: 'trip' });

/** Inactivity notices: the staff member's own operations (chat users, as staff/me) and the managers'. */
const NOTICE_CASES: Readonly<Record<string, RouteCases>> = {
  'POST /v1/staff/me/inactivity-notices': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), headers: chat(GUILD_ID, w.a.staff.alice.chatUserId), body: askFor(10) }),
    cases: [
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
      scopeCase((w) => w.a.keys.readOnly.secret, 'staff:write'),
      {
        name: "X-Service-Workspace-Id naming B is ignored: the notice is A's alice's",
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId }, body: askFor(20) }),
        status: 200,
        check: (body, w) => expect((dataOf(body).notice as { staffId: string }).staffId).toBe(w.a.ids.staff.alice),
      },
      CONTROL,
    ],
  },
  'GET /v1/staff/me/inactivity-notices': chatCases('staff:read', (w) => w.a.keys.readOnly.secret, false, [
    {
      name: "the live key lists alice of A's live notices, none of B's",
      with: (w) => ({ auth: key(w.a.keys.live.secret) }),
      status: 200,
      check: (body, w) => expect(noticeIds(dataOf(body))).not.toContain(w.notices.b),
    },
  ]),
  'POST /v1/staff/me/inactivity-notices/{noticeId}/cancel': {
    valid: (w) => ({
      auth: key(w.a.keys.live.secret),
      headers: chat(GUILD_ID, w.a.staff.alice.chatUserId),
      path: { noticeId: w.notices.a.cancel },
      body: {},
    }),
    cases: [
      notFound("B's key with B's guild and B's chat user, on A's notice", (w) => ({
        auth: key(w.b.keys.live.secret),
        headers: chat(SECOND_GUILD_ID, w.b.staff.alice.chatUserId),
      })),
      notFound("A's key on B's notice", (w) => ({ path: { noticeId: w.notices.b } })),
      notFound('the test key on a live notice', (w) => ({ auth: key(w.a.keys.test.secret) })),
      notFound("another staff member of A on alice's notice", (w) => ({ headers: chat(GUILD_ID, w.a.staff.bob.chatUserId) })),
      {
        name: "B's key with A's guild: 403 guild_mismatch",
        with: (w) => ({ auth: key(w.b.keys.live.secret) }),
        status: 403,
        code: 'guild_mismatch',
      },
      scopeCase((w) => w.a.keys.readOnly.secret, 'staff:write'),
      CONTROL,
    ],
  },
  'GET /v1/staff/inactivity-notices': reviewReadCases({
    a: (body, w) => expect(noticeIds(dataOf(body))).not.toContain(w.notices.b),
    b: (body, w) => expect(noticeIds(dataOf(body))).toEqual([w.notices.b]),
  }),
  'POST /v1/staff/inactivity-notices/{noticeId}/approve': noticeDecisionCases((w) => w.notices.a.approve),
  'POST /v1/staff/inactivity-notices/{noticeId}/deny': noticeDecisionCases((w) => w.notices.a.deny),
};

export const AUTHORIZATION_CASES: Readonly<Record<string, RouteCases>> = {
  'GET /health': PUBLIC,
  'GET /version': PUBLIC,
  'GET /openapi.json': PUBLIC,
  'GET /ready': PUBLIC,
  'GET /metrics': PUBLIC,

  'GET /v1/integration': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret) }),
    cases: [
      CONTROL,
      {
        name: "B's key sees workspace B, whatever X-Service-Workspace-Id says",
        with: (w) => ({ auth: key(w.b.keys.test.secret), headers: { 'x-service-workspace-id': w.a.ids.workspaceId } }),
        status: 200,
        check: (body, w) => expect(dataOf(body).workspace).toMatchObject({ id: w.b.ids.workspaceId }),
      },
      {
        name: "B's key with A's guild",
        with: (w) => ({ auth: key(w.b.keys.test.secret), headers: { 'x-chat-guild-id': GUILD_ID } }),
        status: 403,
        code: 'guild_mismatch',
      },
      {
        name: "A's key with B's guild",
        with: () => ({ headers: { 'x-chat-guild-id': SECOND_GUILD_ID } }),
        status: 403,
        code: 'guild_mismatch',
      },
      {
        name: 'the live key reports the live environment',
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 200,
        check: (body) => expect(dataOf(body).environment).toBe('live'),
      },
      { name: 'a key with any one scope may call it', with: (w) => ({ auth: key(w.a.keys.staffOnly.secret) }), status: 200 },
      FEATURE_OFF,
    ],
  },

  'GET /v1/staff/me': chatCases('staff:read', (w) => w.a.keys.readOnly.secret, false, []),
  ...NOTICE_CASES,

  'GET /v1/activity/me/summary': chatCases('activity:read', (w) => w.a.keys.staffOnly.secret, true, [
    {
      name: 'the test key counts test shifts only (30 of alice\'s 90 minutes today)',
      with: () => ({}),
      status: 200,
      check: (body) => expect(dataOf(body).todayMinutes).toBe(30),
    },
    {
      name: 'the live key counts live shifts only (60 minutes)',
      with: (w) => ({ auth: key(w.a.keys.live.secret) }),
      status: 200,
      check: (body) => expect(dataOf(body).todayMinutes).toBe(60),
    },
  ]),

  'GET /v1/activity/staff/{gameUserId}': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { gameUserId: w.a.staff.alice.gameUserId } }),
    cases: [
      CONTROL,
      notFound("A's key on a game user of workspace B", (w) => ({ path: { gameUserId: w.b.staff.alice.gameUserId } })),
      notFound("B's key on a game user of workspace A", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('X-Service-Workspace-Id naming B does not select it', (w) => ({
        path: { gameUserId: w.b.staff.alice.gameUserId },
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      {
        name: 'the test key counts test shifts only',
        with: () => ({}),
        status: 200,
        check: (body) => expect(dataOf(body)).toMatchObject({ totalSeconds: 1800, completedShifts: 1 }),
      },
      {
        name: 'the live key counts live shifts only',
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 200,
        check: (body) => expect(dataOf(body)).toMatchObject({ totalSeconds: 3600, completedShifts: 1 }),
      },
      scopeCase((w) => w.a.keys.staffOnly.secret, 'activity:read'),
      FEATURE_OFF,
    ],
  },

  'GET /v1/activity/leaderboard': {
    // A's workspace named for a member's token (the world's reviewer is a member of several); a key ignores it.
    valid: (w) => ({ auth: key(w.a.keys.test.secret), headers: { 'x-service-workspace-id': w.a.ids.workspaceId } }),
    cases: [
      CONTROL,
      {
        name: "A's key ranks A's active staff only, whatever X-Service-Workspace-Id says",
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
        check: onlyIds((w) => [w.a.ids.staff.alice, w.a.ids.staff.bob], staffIds),
      },
      {
        name: "B's key ranks B's staff only",
        with: (w) => ({ auth: key(w.b.keys.test.secret), query: 'includeInactive=true' }),
        status: 200,
        check: onlyIds((w) => Object.values(w.b.ids.staff), staffIds),
      },
      {
        name: "a department of workspace B gives A's key an empty page",
        with: (w) => ({ query: `departmentId=${w.b.ids.departments.moderation}` }),
        status: 200,
        check: (body) => expect(dataOf(body).entries).toEqual([]),
      },
      {
        name: 'the test key counts test shifts only',
        with: () => ({}),
        status: 200,
        check: (body, w) => expect(aliceSeconds(w)(dataOf(body))).toBe(1800),
      },
      {
        name: 'the live key counts live shifts only',
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 200,
        check: (body, w) => expect(aliceSeconds(w)(dataOf(body))).toBe(3600),
      },
      MEMBER_READ_CASES['GET /v1/activity/leaderboard'],
      scopeCase((w) => w.a.keys.writeOnly.secret, 'activity:read'),
      FEATURE_OFF,
    ],
  },

  'GET /v1/activity/shifts/active': {
    // A's workspace named for a member's token (the world's reviewer is a member of several); a key ignores it.
    valid: (w) => ({ auth: key(w.a.keys.test.secret), headers: { 'x-service-workspace-id': w.a.ids.workspaceId } }),
    cases: [
      CONTROL,
      {
        name: "the test key lists A's test shifts of every application, no live ones",
        with: () => ({}),
        status: 200,
        check: onlyIds((w) => [w.shifts.aTest, w.shifts.aBob, w.shifts.aApp2], shiftIds),
      },
      {
        name: "the live key lists A's live shifts only",
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 200,
        check: onlyIds((w) => [w.shifts.aLive], shiftIds),
      },
      {
        name: "B's key lists B's shifts only",
        with: (w) => ({ auth: key(w.b.keys.test.secret), headers: { 'x-service-workspace-id': w.a.ids.workspaceId } }),
        status: 200,
        check: onlyIds((w) => [w.shifts.bTest], shiftIds),
      },
      MEMBER_READ_CASES['GET /v1/activity/shifts/active'],
      scopeCase((w) => w.a.keys.writeOnly.secret, 'activity:read'),
      FEATURE_OFF,
    ],
  },

  'GET /v1/activity/shifts/{shiftId}': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { shiftId: w.shifts.aTest } }),
    cases: [
      CONTROL,
      notFound("a key of workspace B on A's shift", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound("A's key on B's shift", (w) => ({ path: { shiftId: w.shifts.bTest } })),
      notFound('the live key on a test shift', (w) => ({ auth: key(w.a.keys.live.secret) })),
      notFound('the test key on a live shift', (w) => ({ path: { shiftId: w.shifts.aLive } })),
      notFound('the test key on a completed live shift', (w) => ({ path: { shiftId: w.shifts.aCompletedLive } })),
      {
        name: 'another application of the same workspace and environment may read it (reads are workspace-wide)',
        with: (w) => ({ auth: key(w.app2.secret) }),
        status: 200,
        check: (body, w) => expect((dataOf(body).shift as { id: string }).id).toBe(w.shifts.aTest),
      },
      scopeCase((w) => w.a.keys.writeOnly.secret, 'activity:read'),
      FEATURE_OFF,
    ],
  },

  'POST /v1/activity/shifts/start': {
    valid: (w) => ({
      auth: key(w.a.keys.test.secret),
      body: { gameUserId: w.a.staff.alice.gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' },
    }),
    cases: [
      notFound("A's key with a game user of workspace B", (w) => ({
        body: { gameUserId: w.b.staff.alice.gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' },
      })),
      notFound("B's key with a game user of workspace A", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('X-Service-Workspace-Id naming B does not select it', (w) => ({
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
        body: { gameUserId: w.b.staff.alice.gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' },
      })),
      scopeCase((w) => w.a.keys.readOnly.secret, 'activity:write'),
      FEATURE_OFF,
      {
        name: "control: alice's active shift of this application and environment is returned, not another's",
        with: () => ({}),
        status: 200,
        check: (body, w) => expect(dataOf(body)).toMatchObject({ existing: true, shift: { id: w.shifts.aTest } }),
      },
    ],
  },
  'POST /v1/activity/shifts/{shiftId}/heartbeat': shiftWriteCases((w) => w.shifts.aTest, { serverId: 'srv-1' }),
  'POST /v1/activity/shifts/{shiftId}/stop': shiftWriteCases((w) => w.shifts.aBob, { reason: 'manual' }),

  'POST /v1/activity/shifts/heartbeats': batchHeartbeatCases(),
  'POST /v1/activity/servers/{serverId}/stop': serverStopCases(),

  'GET /v1/applications/forms': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret) }),
    cases: [
      {
        ...CONTROL,
        name: "control: A's key lists A's forms only, whatever X-Service-Workspace-Id says",
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        check: onlyIds((w) => [w.forms.a], formIds),
      },
      {
        name: "B's key lists B's forms only",
        with: (w) => ({ auth: key(w.b.keys.test.secret) }),
        status: 200,
        check: onlyIds((w) => [w.forms.b], formIds),
      },
      scopeCase((w) => w.a.keys.staffOnly.secret, 'applications:read'),
      APPLICATIONS_OFF,
    ],
  },

  'GET /v1/applications/forms/{formId}': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { formId: w.forms.a } }),
    cases: [
      CONTROL,
      notFound("A's key on B's form", (w) => ({ path: { formId: w.forms.b } })),
      notFound("B's key on A's form", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('X-Service-Workspace-Id naming B does not select it', (w) => ({
        path: { formId: w.forms.b },
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      scopeCase((w) => w.a.keys.staffOnly.secret, 'applications:read'),
      APPLICATIONS_OFF,
    ],
  },

  'POST /v1/applications/forms/{formId}/submissions': {
    valid: (w) => ({
      auth: key(w.a.keys.test.secret),
      path: { formId: w.forms.a },
      body: { applicant: { gameUserId: w.applicantGameUserId }, answers: { why: 'To help.' } },
    }),
    cases: [
      notFound("A's key on B's form", (w) => ({ path: { formId: w.forms.b } })),
      notFound("B's key on A's form", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('X-Service-Workspace-Id naming B does not select it', (w) => ({
        path: { formId: w.forms.b },
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      scopeCase((w) => w.a.keys.staffOnly.secret, 'applications:write'),
      APPLICATIONS_OFF,
      {
        name: "the live key meets the applicant's pending live submission",
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 409,
        code: 'submission_pending',
      },
      {
        ...CONTROL,
        name: 'control: the test key submits to the test queue, apart from the live one',
        check: (body) => expect(dataOf(body).submission).toMatchObject({ status: 'submitted', environment: 'test' }),
      },
    ],
  },

  'GET /v1/applications/applicants/{gameUserId}/submissions': {
    valid: (w) => ({ auth: key(w.a.keys.live.secret), path: { gameUserId: w.applicantGameUserId } }),
    cases: [
      {
        ...CONTROL,
        name: "control: A's live key lists the applicant's submissions of workspace A only",
        check: (body, w) => expect(submissionIdsOf(dataOf(body))).toEqual([w.applicantSubmissions.a]),
      },
      {
        name: "B's key lists workspace B's only",
        with: (w) => ({ auth: key(w.b.keys.live.secret) }),
        status: 200,
        check: (body, w) => expect(submissionIdsOf(dataOf(body))).toEqual([w.applicantSubmissions.b]),
      },
      {
        name: 'the test key sees no live submission, whatever X-Service-Workspace-Id says',
        with: (w) => ({ auth: key(w.a.keys.test.secret), headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
        check: (body, w) => {
          const ids = submissionIdsOf(dataOf(body));
          expect(ids).not.toContain(w.applicantSubmissions.a);
          expect(ids).not.toContain(w.applicantSubmissions.b);
        },
      },
      scopeCase((w) => w.a.keys.staffOnly.secret, 'applications:read'),
      APPLICATIONS_OFF,
    ],
  },

  'POST /v1/applications/submissions/{submissionId}/accept': reviewCases((w) => w.submissions.a.submitted[1]!, {}),
  'POST /v1/applications/submissions/{submissionId}/mark-under-review': reviewCases((w) => w.submissions.a.submitted[0]!, {}),
  'POST /v1/applications/submissions/{submissionId}/reject': reviewCases((w) => w.submissions.a.submitted[2]!, {}),
  'PATCH /v1/applications/submissions/{submissionId}/review': reviewCases((w) => w.submissions.a.underReview, { score: 50 }),
  'GET /v1/applications/submissions': QUEUE_CASES,
  'GET /v1/applications/submissions/{submissionId}': reviewCases((w) => w.submissions.a.accepted, undefined),
  'GET /v1/applications/stats': STATS_CASES,
  ...CONSOLE_CASES,
  ...DISCORD_CASES,
  ...RANK_CASES,
  ...STAFF_CASES,
};
