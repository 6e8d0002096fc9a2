/**
 * The request kinds `npm run bench:trace` measures (trace.ts), on the dataset of trace-run.ts: each one request,
 * with what must be true before it and be undone after it (a start needs a staff member without an active shift,
 * a stop an active shift, an approval a pending notice), done outside the measured window.
 */
import { REVIEWER_ID } from './applications-data.ts';
import { answersFor } from './applications-plan.ts';
import { dashboardHeaders } from './dashboard.ts';
import { requestJson, type JsonResponse } from './http.ts';
import { managerId, PLACE_ID, UNIVERSE_ID, type DatasetPlan } from './plan.ts';
import { Random } from './random.ts';
import { HEARTBEAT_BATCH_SIZE, HEARTBEATS, START } from './workload.ts';

export const KIND_NAMES = [
  'health',
  'heartbeat',
  'batch',
  'start',
  'stop',
  'intake',
  'review',
  'notice',
  'approval',
  'leaderboard',
  'summary',
  'roster',
] as const;
export type KindName = (typeof KIND_NAMES)[number];
/** The reference every other kind is set against: a request that reaches no feature. */
export const REFERENCE_KIND: KindName = 'health';

export interface RequestKind {
  readonly name: KindName;
  /** The request, e.g. `POST /v1/activity/shifts/{id}/heartbeat`. */
  readonly title: string;
  /** Unmeasured, before the request. */
  readonly before?: () => Promise<void>;
  /** The one measured request; throws when it is not answered with a 2xx. */
  send(): Promise<void>;
  /** Unmeasured, after the request. */
  readonly after?: () => Promise<void>;
}

export interface TraceRequests {
  readonly kinds: Readonly<Record<KindName, RequestKind>>;
  /** Starts the shifts the heartbeats and the batches go to. */
  setUp(): Promise<void>;
}

/** The active staff members the requests need: the heartbeats' one, the starts' and stops' one, a batch's, the notices' one. */
export const TRACE_ACTIVE_STAFF = 3 + HEARTBEAT_BATCH_SIZE;
const NOTICES = '/v1/staff/me/inactivity-notices';
const DAY_MS = 24 * 60 * 60 * 1000;

function expectOk(what: string, response: JsonResponse): JsonResponse {
  if (response.status < 200 || response.status > 299) throw new Error(`${what} answered ${response.status}: ${response.text.slice(0, 300)}`);
  return response;
}

function shiftIdOf(response: JsonResponse): string {
  return (response.body as { data: { shift: { id: string } } }).data.shift.id;
}

export function traceRequests(baseUrl: string, plan: DatasetPlan, runTag: string): TraceRequests {
  const big = plan.big;
  const auth = { authorization: `Bearer ${big.key.secret}` };
  const active = big.staff.filter((staff) => staff.status === 'active');
  const [worker, cycler] = active;
  const batchStaff = active.slice(2, 2 + HEARTBEAT_BATCH_SIZE);
  const asker = active[2 + HEARTBEAT_BATCH_SIZE];
  const formId = big.applications?.formId;
  if (!worker || !cycler || !asker || batchStaff.length < HEARTBEAT_BATCH_SIZE || formId === undefined) {
    throw new Error(`the dataset needs ${TRACE_ACTIVE_STAFF} active staff members and an application form`);
  }
  let keys = 0;
  const post = async (what: string, path: string, body: unknown) => {
    keys += 1;
    const headers = { ...auth, 'idempotency-key': `${runTag}-${keys}` };
    return expectOk(what, await requestJson(baseUrl, { method: 'POST', path, headers, body }));
  };
  const get = async (what: string, path: string, headers: Record<string, string>) => expectOk(what, await requestJson(baseUrl, { path, headers }));
  const startBody = (gameUserId: string) => ({ gameUserId, universeId: UNIVERSE_ID, placeId: PLACE_ID, serverId: 'srv-001' });

  let heartbeatShift: string | null = null;
  let cycleShift: string | null = null;
  const startCycle = async (what: string) => {
    cycleShift = shiftIdOf(await post(what, START, startBody(cycler.gameUserId)));
  };
  const stopCycle = async (what: string) => {
    if (cycleShift === null) throw new Error(`${what}: no active shift to stop`);
    await post(what, `/v1/activity/shifts/${cycleShift}/stop`, { reason: 'manual' });
    cycleShift = null;
  };
  // A new applicant per submission (the form has a cooldown), never one of another run on the same data.
  const runCode = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
  const random = new Random(Number(runCode));
  let applicants = 0;
  const submit = async (what: string) => {
    applicants += 1;
    const applicant = { gameUserId: `5${runCode}${String(applicants).padStart(7, '0')}`, gameUsername: `trace_applicant_${applicants}` };
    return post(what, `/v1/applications/forms/${formId}/submissions`, { applicant, answers: answersFor(applicants, random) });
  };
  let batchBody: { serverId: string; shiftIds: string[] } | null = null;
  let reviewed: string | null = null;
  let reviewer: Record<string, string> | null = null;
  let member: Record<string, string> | null = null;
  let manager: Record<string, string> | null = null;
  let pendingNotice: string | null = null;
  // Each notice a whole day of its own, two months after the data's (which lie around now): none overlaps another.
  let noticeDay = Math.floor(Math.max(plan.now, Date.now()) / DAY_MS) + 60;
  const askForNotice = async (what: string) => {
    noticeDay += 1;
    keys += 1;
    const headers = {
      authorization: `Bearer ${big.botKey.secret}`,
      'x-chat-guild-id': big.guildId,
      'x-acting-chat-user-id': asker.chatUserId,
      'idempotency-key': `${runTag}-${keys}`,
    };
    const body = { startsAt: new Date(noticeDay * DAY_MS).toISOString(), endsAt: new Date((noticeDay + 1) * DAY_MS).toISOString(), reason: 'trace' };
    const response = expectOk(what, await requestJson(baseUrl, { method: 'POST', path: NOTICES, headers, body }));
    return (response.body as { data: { notice: { id: string } } }).data.notice.id;
  };

  const kinds: Record<KindName, RequestKind> = {
    health: {
      name: 'health',
      title: 'GET /health',
      send: async () => {
        await get('health', '/health', {});
      },
    },
    heartbeat: {
      name: 'heartbeat',
      title: 'POST /v1/activity/shifts/{id}/heartbeat',
      send: async () => {
        await post('heartbeat', `/v1/activity/shifts/${heartbeatShift ?? ''}/heartbeat`, { recordedAt: new Date().toISOString() });
      },
    },
    batch: {
      name: 'batch',
      title: `POST ${HEARTBEATS} (${HEARTBEAT_BATCH_SIZE} shifts)`,
      send: async () => {
        await post('batch', HEARTBEATS, batchBody);
      },
    },
    start: {
      name: 'start',
      title: 'POST /v1/activity/shifts/start',
      send: () => startCycle('start'),
      after: () => stopCycle('stop after a start'),
    },
    stop: {
      name: 'stop',
      title: 'POST /v1/activity/shifts/{id}/stop',
      before: () => startCycle('start before a stop'),
      send: () => stopCycle('stop'),
    },
    intake: {
      name: 'intake',
      title: 'POST /v1/applications/forms/{formId}/submissions',
      send: async () => {
        await submit('intake');
      },
    },
    review: {
      name: 'review',
      title: 'POST /v1/applications/submissions/{id}/reject',
      before: async () => {
        const body = (await submit('submission before a review')).body as { data: { submission: { id: string } } };
        reviewed = body.data.submission.id;
        reviewer ??= await dashboardHeaders(REVIEWER_ID);
      },
      send: async () => {
        keys += 1;
        const headers = { ...reviewer, 'idempotency-key': `${runTag}-${keys}` };
        const path = `/v1/applications/submissions/${reviewed ?? ''}/reject`;
        expectOk('review', await requestJson(baseUrl, { method: 'POST', path, headers, body: { reviewNote: 'trace' } }));
      },
    },
    notice: {
      name: 'notice',
      title: `POST ${NOTICES}`,
      send: async () => {
        await askForNotice('notice');
      },
    },
    approval: {
      name: 'approval',
      title: 'POST /v1/staff/inactivity-notices/{noticeId}/approve',
      before: async () => {
        pendingNotice = await askForNotice('notice before an approval');
        manager ??= await dashboardHeaders(managerId(0));
      },
      send: async () => {
        keys += 1;
        const headers = { ...manager, 'idempotency-key': `${runTag}-${keys}` };
        const path = `/v1/staff/inactivity-notices/${pendingNotice ?? ''}/approve`;
        expectOk('approval', await requestJson(baseUrl, { method: 'POST', path, headers, body: {} }));
      },
    },
    leaderboard: {
      name: 'leaderboard',
      title: 'GET /v1/activity/leaderboard?period=week',
      send: async () => {
        await get('leaderboard', '/v1/activity/leaderboard?period=week', auth);
      },
    },
    summary: {
      name: 'summary',
      title: 'GET /v1/activity/me/summary',
      send: async () => {
        await get('summary', '/v1/activity/me/summary', {
          ...auth,
          'x-chat-guild-id': big.guildId,
          'x-acting-chat-user-id': worker.chatUserId,
        });
      },
    },
    roster: {
      name: 'roster',
      title: 'GET /v1/staff?limit=25',
      before: async () => {
        member ??= { ...(await dashboardHeaders(REVIEWER_ID)), 'x-service-workspace-id': big.id };
      },
      send: async () => {
        await get('roster', '/v1/staff?limit=25', member ?? {});
      },
    },
  };
  return {
    kinds,
    async setUp() {
      heartbeatShift = shiftIdOf(await post('start of the heartbeats\' shift', START, startBody(worker.gameUserId)));
      const shiftIds: string[] = [];
      for (const staff of batchStaff) shiftIds.push(shiftIdOf(await post('start of a batch\'s shift', START, startBody(staff.gameUserId))));
      batchBody = { serverId: 'srv-001', shiftIds };
    },
  };
}
