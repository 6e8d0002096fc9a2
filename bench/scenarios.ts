/**
 * The measured scenarios. Each one checks a sample response (status, OpenAPI shape and what the data must
 * say) before it is measured, so a broken endpoint fails the run instead of benchmarking error responses.
 */
import type autocannon from 'autocannon';
import type { ResponseContract } from './contract.ts';
import { mapConcurrent, requestJson, type JsonResponse } from './http.ts';
import { PLACE_ID, SERVER_COUNT, UNIVERSE_ID, type DatasetPlan, type StaffPlan } from './plan.ts';
import type { Profile } from './profiles.ts';
import { Random } from './random.ts';
import type { TargetResult } from './targets.ts';
import { webhookScenarios } from './webhooks.ts';

/** Every scenario, in the order a run measures them: reads first, on the generated data only, then writes. */
export const SCENARIO_NAMES = [
  'baseline',
  'integration',
  'summary',
  'staff-month',
  'leaderboard-week',
  'leaderboard-week-deep',
  'leaderboard-month',
  'heartbeat',
  'heartbeat-batch',
  'start-stop',
  'start-stop-webhooks',
  'webhook-delivery',
  'mixed',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface ScenarioContext {
  readonly baseUrl: string;
  /** The database the server runs on (scenarios that set up data the API cannot, e.g. webhook endpoints). */
  readonly databaseUrl: string;
  readonly plan: DatasetPlan;
  readonly profile: Profile;
  readonly contract: ResponseContract;
  /** Unique per run: idempotency keys never repeat across runs on one database. */
  readonly runTag: string;
  readonly log: (message: string) => void;
}

export interface Scenario {
  readonly name: ScenarioName;
  readonly title: string;
  /** Setup that must happen before the check (e.g. starting the shifts heartbeats go to). */
  prepare?(): Promise<void>;
  /** One checked sample; throws when the scenario does not answer correctly. */
  check(): Promise<void>;
  /** Fresh request generators for one load phase (warm-up and measurement each get their own). */
  requests(): autocannon.RequestSpec[];
  /** Targets the scenario judges itself, read after it was measured. */
  targets?(): TargetResult[];
  /** Streams measured alone and then side by side (the `mixed` scenario), instead of `requests`. */
  readonly mixed?: MixedStreams;
}

/** One request stream of the mixed scenario. */
export interface MixedStream {
  readonly name: 'heartbeats' | 'start-stop' | 'reads';
  readonly title: string;
  /** The run's connections for heartbeats; LATENCY_CONNECTIONS-sized for the others. */
  readonly connections: number;
  requests(): autocannon.RequestSpec[];
}

export interface MixedStreams {
  readonly streams: readonly MixedStream[];
  /**
   * One cold read: a start and a stop (which moves the workspace's activity version), then page 1 of the week
   * leaderboard, checked; resolves with the leaderboard request's latency in ms.
   */
  coldRead(i: number): Promise<number>;
}

interface LeaderboardEntry {
  readonly staffId: string;
  readonly totalSeconds: number;
  readonly totalMinutes: number;
  readonly completedShifts: number;
  readonly position: number;
}

interface LeaderboardData {
  readonly entries: LeaderboardEntry[];
  readonly nextCursor: { readonly cursorTotalSeconds: number; readonly cursorStaffId: string } | null;
  readonly period: { readonly start: string; readonly end: string; readonly timezone: string };
}

interface ActiveShift {
  readonly id: string;
  readonly body: string;
}

const LEADERBOARD = '/v1/activity/leaderboard';
const HEARTBEATS = '/v1/activity/shifts/heartbeats';
/** Shifts per batch heartbeat in the heartbeat-batch scenario (a game server of 50 staff on shift). */
export const HEARTBEAT_BATCH_SIZE = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

function fail(scenario: string, message: string): never {
  throw new Error(`${scenario}: ${message}`);
}

function dataOf<T>(response: JsonResponse): T {
  return (response.body as { data: T }).data;
}

function serverOf(index: number): string {
  return `srv-${String((index % SERVER_COUNT) + 1).padStart(3, '0')}`;
}

export function buildScenarios(ctx: ScenarioContext): Scenario[] {
  const { baseUrl, plan, contract, profile, runTag } = ctx;
  const big = plan.big;
  const auth = { authorization: `Bearer ${big.key.secret}` };
  const staffById = new Map(big.staff.map((s) => [s.id, s]));
  const activeStaff = big.staff.filter((s) => s.status === 'active');
  const activeCount = activeStaff.length;
  // Heartbeats go to the first staff members' shifts; start/stop cycles use the others, so they never meet.
  const heartbeatStaff = activeStaff.slice(0, Math.min(profile.heartbeatShifts, activeCount - profile.connections * 2));
  const cycleStaff = activeStaff.slice(heartbeatStaff.length);
  let phase = 0;
  const nextPhase = () => {
    phase += 1;
    return phase;
  };
  const get = (path: string, headers: Record<string, string> = auth) => requestJson(baseUrl, { path, headers });
  const post = (path: string, key: string, body: unknown) =>
    requestJson(baseUrl, { method: 'POST', path, headers: { ...auth, 'idempotency-key': key }, body });

  async function leaderboard(label: string, query: string): Promise<LeaderboardData> {
    const response = await get(`${LEADERBOARD}?${query}`);
    contract.check(label, 'GET', LEADERBOARD, response);
    return dataOf<LeaderboardData>(response);
  }

  /** Positions continue from `after`, and the order is totalSeconds descending then staffId ascending. */
  function checkRanking(label: string, data: LeaderboardData, after: number, expected: number): void {
    if (data.entries.length !== expected) fail(label, `expected ${expected} entries, got ${data.entries.length}`);
    data.entries.forEach((entry, i) => {
      if (entry.position !== after + i + 1) fail(label, `entry ${i} has position ${entry.position}, expected ${after + i + 1}`);
      if (!staffById.has(entry.staffId)) fail(label, `entry ${i} names staff ${entry.staffId} of another workspace`);
      const previous = data.entries[i - 1];
      if (
        previous &&
        (previous.totalSeconds < entry.totalSeconds ||
          (previous.totalSeconds === entry.totalSeconds && previous.staffId > entry.staffId))
      ) {
        fail(label, `entries ${i - 1} and ${i} are out of order`);
      }
    });
    if (data.period.timezone !== big.timezone) fail(label, `period.timezone is ${data.period.timezone}, expected ${big.timezone}`);
  }

  const getEach = (path: () => string, headers: () => Record<string, string> = () => auth): autocannon.RequestSpec[] => [
    { method: 'GET', setupRequest: (request: autocannon.RequestSpec) => ({ ...request, path: path(), headers: headers() }) },
  ];

  // ----------------------------------------------------------------------------------------------------
  const baseline: Scenario = {
    name: 'baseline',
    title: 'GET /health (framework ceiling)',
    async check() {
      const response = await get('/health', {});
      contract.check('baseline', 'GET', '/health', response);
    },
    requests: () => [{ method: 'GET', path: '/health' }],
  };

  // ----------------------------------------------------------------------------------------------------
  const keys = [big, ...plan.small];
  const integration: Scenario = {
    name: 'integration',
    title: `GET /v1/integration (keys of ${keys.length} workspaces in turn)`,
    async check() {
      for (const workspace of [big, plan.small[0]]) {
        if (!workspace) continue;
        const response = await get('/v1/integration', { authorization: `Bearer ${workspace.key.secret}` });
        contract.check('integration', 'GET', '/v1/integration', response);
        const data = dataOf<{ workspace: { id: string }; application: { id: string }; chat: { guildId: string | null } }>(response);
        if (data.workspace.id !== workspace.id) fail('integration', 'the key answered for another workspace');
        if (data.application.id !== workspace.applicationId) fail('integration', 'the key answered for another application');
        if (data.chat.guildId !== workspace.guildId) fail('integration', 'the chat binding is not the provisioned one');
      }
    },
    requests() {
      let n = 0;
      return getEach(
        () => '/v1/integration',
        () => {
          n += 1;
          return { authorization: `Bearer ${keys[n % keys.length]?.key.secret ?? ''}` };
        },
      );
    },
  };

  // ----------------------------------------------------------------------------------------------------
  const chatHeaders = (staff: StaffPlan) => ({
    ...auth,
    'x-chat-guild-id': big.guildId,
    'x-acting-chat-user-id': staff.chatUserId,
  });
  const summary: Scenario = {
    name: 'summary',
    title: 'GET /v1/activity/me/summary (random staff)',
    async check() {
      // The summary's current week must agree with the week leaderboard for the same staff member.
      const week = await leaderboard('summary', 'period=week&limit=5');
      for (const entry of week.entries) {
        const staff = staffById.get(entry.staffId);
        if (!staff) fail('summary', 'leaderboard staff not in the plan');
        const response = await get('/v1/activity/me/summary', chatHeaders(staff));
        contract.check('summary', 'GET', '/v1/activity/me/summary', response);
        const data = dataOf<{ currentWeekMinutes: number; timezone: string }>(response);
        if (data.currentWeekMinutes !== entry.totalMinutes) {
          fail('summary', `currentWeekMinutes ${data.currentWeekMinutes} differs from the leaderboard's ${entry.totalMinutes}`);
        }
        if (data.timezone !== big.timezone) fail('summary', `timezone ${data.timezone}, expected ${big.timezone}`);
      }
    },
    requests() {
      const random = new Random(nextPhase());
      return getEach(
        () => '/v1/activity/me/summary',
        () => chatHeaders(random.pick(big.staff)),
      );
    },
  };

  // ----------------------------------------------------------------------------------------------------
  const staffMonth: Scenario = {
    name: 'staff-month',
    title: 'GET /v1/activity/staff/{gameUserId}?period=month (random staff)',
    async check() {
      const month = await leaderboard('staff-month', 'period=month&limit=5');
      for (const entry of month.entries) {
        const staff = staffById.get(entry.staffId);
        if (!staff) fail('staff-month', 'leaderboard staff not in the plan');
        const response = await get(`/v1/activity/staff/${staff.gameUserId}?period=month`);
        contract.check('staff-month', 'GET', '/v1/activity/staff/{gameUserId}', response);
        const data = dataOf<{ staff: { id: string }; totalSeconds: number; completedShifts: number }>(response);
        if (data.staff.id !== staff.id) fail('staff-month', 'answered for another staff member');
        if (data.totalSeconds !== entry.totalSeconds || data.completedShifts !== entry.completedShifts) {
          fail(
            'staff-month',
            `totals ${data.totalSeconds} s / ${data.completedShifts} shifts differ from the month leaderboard's ` +
              `${entry.totalSeconds} s / ${entry.completedShifts} shifts`,
          );
        }
      }
    },
    requests() {
      const random = new Random(nextPhase());
      return getEach(() => `/v1/activity/staff/${random.pick(big.staff).gameUserId}?period=month`);
    },
  };

  // ----------------------------------------------------------------------------------------------------
  const leaderboardWeek: Scenario = {
    name: 'leaderboard-week',
    title: 'GET /v1/activity/leaderboard?period=week (page 1, 25 entries)',
    async check() {
      const page = await leaderboard('leaderboard-week', 'period=week');
      checkRanking('leaderboard-week', page, 0, Math.min(25, activeCount));
      if (activeCount > 25 && page.nextCursor === null) fail('leaderboard-week', 'nextCursor is null on page 1');
      // The generated history is there: the last 28 days rank someone above zero.
      const end = new Date(plan.now).toISOString();
      const start = new Date(plan.now - 28 * DAY_MS).toISOString();
      const recent = await leaderboard('leaderboard-week', `start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}&limit=1`);
      if ((recent.entries[0]?.totalSeconds ?? 0) <= 0) fail('leaderboard-week', 'no time worked in the last 28 days of the data');
    },
    requests: () => [{ method: 'GET', path: `${LEADERBOARD}?period=week`, headers: auth }],
  };

  // ----------------------------------------------------------------------------------------------------
  let deepQuery = 'period=week';
  const deepPosition = Math.min(profile.deepPosition, Math.max(0, activeCount - 25));
  const leaderboardDeep: Scenario = {
    name: 'leaderboard-week-deep',
    title: `GET /v1/activity/leaderboard?period=week (page after position ${deepPosition.toLocaleString('en-US')})`,
    async prepare() {
      // Follow nextCursor with 100-entry pages down to the deep position.
      let query = 'period=week&limit=100';
      let position = 0;
      while (position < deepPosition) {
        const limit = Math.min(100, deepPosition - position);
        const page = await leaderboard('leaderboard-week-deep', query.replace(/limit=\d+/, `limit=${limit}`));
        checkRanking('leaderboard-week-deep', page, position, limit);
        position += page.entries.length;
        if (!page.nextCursor) fail('leaderboard-week-deep', `nextCursor is null at position ${position}`);
        query = `period=week&limit=100&cursorTotalSeconds=${page.nextCursor.cursorTotalSeconds}&cursorStaffId=${page.nextCursor.cursorStaffId}`;
      }
      deepQuery = position === 0 ? 'period=week' : query.replace('limit=100&', '');
    },
    async check() {
      const page = await leaderboard('leaderboard-week-deep', deepQuery);
      checkRanking('leaderboard-week-deep', page, deepPosition, Math.min(25, activeCount - deepPosition));
    },
    requests: () => [{ method: 'GET', path: `${LEADERBOARD}?${deepQuery}`, headers: auth }],
  };

  // ----------------------------------------------------------------------------------------------------
  const leaderboardMonth: Scenario = {
    name: 'leaderboard-month',
    title: 'GET /v1/activity/leaderboard?period=month (page 1, 25 entries)',
    async check() {
      const page = await leaderboard('leaderboard-month', 'period=month');
      checkRanking('leaderboard-month', page, 0, Math.min(25, activeCount));
    },
    requests: () => [{ method: 'GET', path: `${LEADERBOARD}?period=month`, headers: auth }],
  };

  // ----------------------------------------------------------------------------------------------------
  let activeShifts: ActiveShift[] = [];
  const startBody = (staff: StaffPlan, index: number) => ({
    gameUserId: staff.gameUserId,
    universeId: UNIVERSE_ID,
    placeId: PLACE_ID,
    serverId: serverOf(index),
  });
  /** Starts the active shifts the heartbeat scenarios send to, once per run. */
  async function startActiveShifts(): Promise<void> {
    if (activeShifts.length > 0) return;
    const started = performance.now();
    activeShifts = await mapConcurrent(heartbeatStaff, profile.connections, async (staff, i) => {
      const response = await post('/v1/activity/shifts/start', `${runTag}-setup-start-${i}`, startBody(staff, i));
      contract.check('heartbeat setup (start)', 'POST', '/v1/activity/shifts/start', response);
      const id = dataOf<{ shift: { id: string } }>(response).shift.id;
      return { id, body: JSON.stringify({ serverId: serverOf(i) }) };
    });
    ctx.log(`  started ${activeShifts.length} active shifts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const heartbeat: Scenario = {
    name: 'heartbeat',
    title: `POST /v1/activity/shifts/{id}/heartbeat (${heartbeatStaff.length.toLocaleString('en-US')} active shifts in turn, unique keys)`,
    prepare: startActiveShifts,
    async check() {
      const shift = activeShifts[0];
      if (!shift) fail('heartbeat', 'no active shift to send heartbeats to');
      const key = `${runTag}-check-heartbeat`;
      const path = `/v1/activity/shifts/${shift.id}/heartbeat`;
      const template = '/v1/activity/shifts/{shiftId}/heartbeat';
      const first = await post(path, key, JSON.parse(shift.body));
      contract.check('heartbeat', 'POST', template, first);
      const data = dataOf<{ shift: { id: string; status: string } }>(first);
      if (data.shift.id !== shift.id || data.shift.status !== 'active') fail('heartbeat', 'answered for another shift');
      const replay = await post(path, key, JSON.parse(shift.body));
      contract.check('heartbeat (replay)', 'POST', template, replay);
      if (replay.headers.get('idempotent-replayed') !== 'true') fail('heartbeat', 'a repeated key was not replayed');
    },
    requests() {
      const tag = `${runTag}-hb${nextPhase()}`;
      let n = 0;
      return [
        {
          method: 'POST',
          setupRequest(request) {
            const i = n;
            n += 1;
            const shift = activeShifts[i % activeShifts.length];
            if (!shift) return null;
            return {
              ...request,
              path: `/v1/activity/shifts/${shift.id}/heartbeat`,
              headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `${tag}-${i}` },
              body: shift.body,
            };
          },
        },
      ];
    },
  };

  // ----------------------------------------------------------------------------------------------------
  /** The active shifts grouped by game server, in batches of at most HEARTBEAT_BATCH_SIZE: one body each. */
  function batchBodies(): string[] {
    const byServer = new Map<string, string[]>();
    activeShifts.forEach((shift, i) => {
      const server = serverOf(i);
      byServer.set(server, [...(byServer.get(server) ?? []), shift.id]);
    });
    const bodies: string[] = [];
    for (const [serverId, ids] of byServer) {
      for (let at = 0; at < ids.length; at += HEARTBEAT_BATCH_SIZE) {
        bodies.push(JSON.stringify({ serverId, shiftIds: ids.slice(at, at + HEARTBEAT_BATCH_SIZE) }));
      }
    }
    return bodies;
  }
  let batches: string[] = [];
  const heartbeatBatch: Scenario = {
    name: 'heartbeat-batch',
    title: `POST /v1/activity/shifts/heartbeats (batches of up to ${HEARTBEAT_BATCH_SIZE} shifts of one server, unique keys)`,
    async prepare() {
      await startActiveShifts();
      batches = batchBodies();
    },
    async check() {
      const body = batches[0];
      if (!body) fail('heartbeat-batch', 'no batch to send');
      const sent = JSON.parse(body) as { shiftIds: string[] };
      const key = `${runTag}-check-heartbeat-batch`;
      const first = await post(HEARTBEATS, key, sent);
      contract.check('heartbeat-batch', 'POST', HEARTBEATS, first);
      const results = dataOf<{ results: { shiftId: string; shift?: { status: string } }[] }>(first).results;
      if (results.length !== sent.shiftIds.length) fail('heartbeat-batch', 'not one result per listed shift');
      results.forEach((result, i) => {
        if (result.shiftId !== sent.shiftIds[i] || result.shift?.status !== 'active') {
          fail('heartbeat-batch', `item ${i} was not applied: ${JSON.stringify(result)}`);
        }
      });
      const replay = await post(HEARTBEATS, key, sent);
      contract.check('heartbeat-batch (replay)', 'POST', HEARTBEATS, replay);
      if (replay.headers.get('idempotent-replayed') !== 'true') fail('heartbeat-batch', 'a repeated key was not replayed');
    },
    requests() {
      const tag = `${runTag}-hbb${nextPhase()}`;
      let n = 0;
      return [
        {
          method: 'POST',
          path: HEARTBEATS,
          setupRequest(request) {
            const i = n;
            n += 1;
            const body = batches[i % batches.length];
            if (!body) return null;
            return { ...request, headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `${tag}-${i}` }, body };
          },
        },
      ];
    },
  };

  // ----------------------------------------------------------------------------------------------------
  const startStop: Scenario = {
    name: 'start-stop',
    title: 'POST …/start then …/stop per connection (distinct staff, unique keys)',
    async check() {
      const staff = cycleStaff[0];
      if (!staff) fail('start-stop', 'no staff member left for start/stop cycles');
      const start = await post('/v1/activity/shifts/start', `${runTag}-check-start`, startBody(staff, 0));
      contract.check('start-stop (start)', 'POST', '/v1/activity/shifts/start', start);
      const started = dataOf<{ shift: { id: string; status: string }; existing?: boolean }>(start);
      if (started.shift.status !== 'active' || started.existing === true) fail('start-stop', 'start did not start a new shift');
      const stop = await post(`/v1/activity/shifts/${started.shift.id}/stop`, `${runTag}-check-stop`, { reason: 'manual' });
      contract.check('start-stop (stop)', 'POST', '/v1/activity/shifts/{shiftId}/stop', stop);
      const stopped = dataOf<{ shift: { id: string; status: string; endReason: string } }>(stop);
      if (stopped.shift.id !== started.shift.id || stopped.shift.status !== 'completed' || stopped.shift.endReason !== 'manual') {
        fail('start-stop', 'stop did not complete the shift');
      }
    },
    requests() {
      const tag = `${runTag}-cyc${nextPhase()}`;
      let starts = 0;
      let stops = 0;
      const headers = (key: string) => ({ ...auth, 'content-type': 'application/json', 'idempotency-key': key });
      return [
        {
          method: 'POST',
          path: '/v1/activity/shifts/start',
          setupRequest(request) {
            // A staff member comes round again only after every other one did: connections never share one.
            const i = starts;
            starts += 1;
            const staff = cycleStaff[i % cycleStaff.length];
            if (!staff) return null;
            return { ...request, headers: headers(`${tag}-start-${i}`), body: JSON.stringify(startBody(staff, i)) };
          },
          onResponse(status, body, context) {
            if (status !== 200) return;
            context.shiftId = (JSON.parse(body) as { data: { shift: { id: string } } }).data.shift.id;
          },
        },
        {
          method: 'POST',
          setupRequest(request, context) {
            const id = context.shiftId;
            if (typeof id !== 'string') return null;
            const i = stops;
            stops += 1;
            return {
              ...request,
              path: `/v1/activity/shifts/${id}/stop`,
              headers: headers(`${tag}-stop-${i}`),
              body: '{"reason":"manual"}',
            };
          },
        },
      ];
    },
  };

  // ----------------------------------------------------------------------------------------------------
  const readsInTurn = (): autocannon.RequestSpec[] => {
    const random = new Random(nextPhase());
    return [
      { method: 'GET', path: `${LEADERBOARD}?period=week`, headers: auth },
      { method: 'GET', setupRequest: (request) => ({ ...request, path: '/v1/activity/me/summary', headers: chatHeaders(random.pick(big.staff)) }) },
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: `/v1/activity/staff/${random.pick(big.staff).gameUserId}?period=week`, headers: auth }),
      },
    ];
  };
  const smallConnections = Math.min(4, profile.connections);
  let coldStaff = 0;
  const mixed: Scenario = {
    name: 'mixed',
    title:
      `heartbeats at ${profile.connections} connections, start/stop cycles at ${smallConnections}, and week leaderboard, ` +
      `summary and per-staff reads at ${smallConnections}, each alone and then all at once`,
    async prepare() {
      if (activeShifts.length === 0) await heartbeat.prepare?.();
    },
    async check() {
      await heartbeat.check();
      await startStop.check();
      await mixed.mixed?.coldRead(0);
    },
    requests: () => [],
    mixed: {
      streams: [
        { name: 'heartbeats', title: 'heartbeats', connections: profile.connections, requests: () => heartbeat.requests() },
        { name: 'start-stop', title: 'start/stop cycles', connections: smallConnections, requests: () => startStop.requests() },
        { name: 'reads', title: 'week leaderboard, summary, per-staff week (in turn)', connections: smallConnections, requests: readsInTurn },
      ],
      async coldRead(i) {
        // Staff from the far end of the cycle list, so the start/stop stream (which begins at its start) never meets them.
        coldStaff += 1;
        const staff = cycleStaff[cycleStaff.length - 1 - (coldStaff % Math.max(1, Math.floor(cycleStaff.length / 2)))];
        if (!staff) fail('mixed', 'no staff member left for the cold reads');
        const start = await post('/v1/activity/shifts/start', `${runTag}-cold-start-${i}-${coldStaff}`, startBody(staff, i));
        contract.check('mixed (cold start)', 'POST', '/v1/activity/shifts/start', start);
        const id = dataOf<{ shift: { id: string } }>(start).shift.id;
        const stop = await post(`/v1/activity/shifts/${id}/stop`, `${runTag}-cold-stop-${i}-${coldStaff}`, { reason: 'manual' });
        contract.check('mixed (cold stop)', 'POST', '/v1/activity/shifts/{shiftId}/stop', stop);
        const began = performance.now();
        const page = await get(`${LEADERBOARD}?period=week`);
        const elapsed = performance.now() - began;
        contract.check('mixed (cold leaderboard)', 'GET', LEADERBOARD, page);
        checkRanking('mixed (cold leaderboard)', dataOf<LeaderboardData>(page), 0, Math.min(25, activeCount));
        return elapsed;
      },
    },
  };

  const webhooks = webhookScenarios(ctx, startStop);
  const byName: Record<ScenarioName, Scenario> = {
    baseline,
    integration,
    summary,
    'staff-month': staffMonth,
    'leaderboard-week': leaderboardWeek,
    'leaderboard-week-deep': leaderboardDeep,
    'leaderboard-month': leaderboardMonth,
    heartbeat,
    'heartbeat-batch': heartbeatBatch,
    'start-stop': startStop,
    'start-stop-webhooks': webhooks['start-stop-webhooks'],
    'webhook-delivery': webhooks['webhook-delivery'],
    mixed,
  };
  return SCENARIO_NAMES.map((name) => byName[name]);
}
