/**
 * The measured scenarios. Each one checks a sample response (status, OpenAPI shape and what the data must
 * say) before it is measured, so a broken endpoint fails the run instead of benchmarking error responses.
 * Reads are here; writes in write-scenarios.ts, the applications' in application-scenarios.ts, the inactivity notices'
 * in notice-scenarios.ts, the open-loop scenario in open/scenario.ts, webhooks in
 * webhooks.ts.
 */
import type autocannon from 'autocannon';
import type { CpuMeter } from './cpu.ts';
import type { OpenScenario } from './open/scenario.ts';
import { openScenario } from './open/scenario.ts';
import { Random } from './random.ts';
import type { ScenarioRecord } from './report.ts';
import type { StoreName, TargetResult } from './targets.ts';
import { webhookScenarios } from './webhooks.ts';
import { applicationScenarios } from './application-scenarios.ts';
import { noticeScenarios } from './notice-scenarios.ts';
import { discordScenarios } from './discord-scenarios.ts';
import { staffScenarios } from './staff-scenarios.ts';
import { createWorkload, dataOf, fail, LEADERBOARD, type Workload, type WorkloadContext } from './workload.ts';
import { writeScenarios } from './write-scenarios.ts';

/** Every scenario, in the order a run measures them: reads first, on the generated data only, then writes. */
export const SCENARIO_NAMES = [
  'baseline',
  'integration',
  'summary',
  'staff-month',
  'leaderboard-week',
  'leaderboard-week-deep',
  'leaderboard-month',
  'roster',
  'discord-activity',
  'queue',
  'submission',
  'heartbeat',
  'heartbeat-batch',
  'start-stop',
  'start',
  'intake',
  'cold-leaderboard',
  'notice-request',
  'notice-decide',
  'open',
  'start-stop-webhooks',
  'webhook-delivery',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface ScenarioContext extends WorkloadContext {
  readonly store: StoreName;
  /** The database the server runs on (scenarios that set up data the API cannot, e.g. webhook endpoints). */
  readonly databaseUrl: string;
  /** The gateway's (and database's) CPU, for costs a scenario measures itself (webhook deliveries). */
  readonly meter: CpuMeter;
  /** The webhook receiver closes each connection after answering (`--receiver-closes`). */
  readonly receiverCloses: boolean;
}

/** What one operation of a scenario is, for its cost: by default one request. */
export interface OperationUnit {
  readonly unit: string;
  /** Requests per operation (a start + stop cycle: 2). */
  readonly requests: number;
  /** Shifts one operation carries (batch heartbeats), known once the scenario is prepared. */
  shifts?(): number;
}

export interface Scenario {
  readonly name: ScenarioName;
  readonly title: string;
  readonly operation?: OperationUnit;
  /** Setup that must happen before the check (e.g. starting the shifts heartbeats go to). */
  prepare?(): Promise<void>;
  /** One checked sample; throws when the scenario does not answer correctly. */
  check(): Promise<void>;
  /** Fresh request generators for one load phase (warm-up and measurement each get their own). */
  requests(): autocannon.RequestSpec[];
  /**
   * A fixed number of requests per phase instead of the profile's duration, for a scenario that can only make so
   * many (`start`: one per free staff member).
   */
  amount?(warmup: boolean): number;
  /** Targets the scenario judges itself, read after it was measured, with the run's records so far. */
  targets?(records: readonly ScenarioRecord[]): TargetResult[];
  /** Undoes what prepare set up that later scenarios must not see (e.g. a webhook endpoint). */
  cleanup?(): Promise<void>;
  /** Requests timed one at a time instead of a load (`cold-leaderboard`): how many, and one of them (ms). */
  readonly sequential?: { readonly count: number; one(i: number): Promise<number> };
  /** The open-loop scenario, measured by open/measure.ts instead of `requests`. */
  readonly open?: OpenScenario;
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

const DAY_MS = 24 * 60 * 60 * 1000;

/** The checks the read scenarios make, shared with the write scenarios that read back. */
export interface ReadChecks {
  leaderboard(label: string, query: string): Promise<LeaderboardData>;
  /** Positions continue from `after`, and the order is totalSeconds descending then staffId ascending. */
  checkRanking(label: string, data: LeaderboardData, after: number, expected: number): void;
  readonly activeCount: number;
}

function readChecks(ctx: ScenarioContext, workload: Workload): ReadChecks {
  const big = ctx.plan.big;
  const staffById = new Map(big.staff.map((s) => [s.id, s]));
  return {
    activeCount: big.staff.filter((s) => s.status === 'active').length,
    async leaderboard(label, query) {
      const response = await workload.get(`${LEADERBOARD}?${query}`);
      ctx.contract.check(label, 'GET', LEADERBOARD, response);
      return dataOf<LeaderboardData>(response);
    },
    checkRanking(label, data, after, expected) {
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
    },
  };
}

export function buildScenarios(ctx: ScenarioContext): Scenario[] {
  const { plan, contract, profile } = ctx;
  const big = plan.big;
  const workload = createWorkload(ctx);
  const { auth } = workload;
  const checks = readChecks(ctx, workload);
  const { leaderboard, checkRanking, activeCount } = checks;
  const staffById = new Map(big.staff.map((s) => [s.id, s]));
  let phase = 0;
  const nextPhase = () => {
    phase += 1;
    return phase;
  };
  const get = workload.get;
  const chatHeaders = workload.chatHeaders;

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
      // The approved notices of the data are read: one under way now lowers its staff member's requirement.
      const now = Date.now();
      const notice = (big.document.inactivityNotices ?? []).find(
        (n) => n.status === 'approved' && Date.parse(n.startsAt) <= now && now < Date.parse(n.endsAt),
      );
      const away = notice && staffById.get(notice.staffId);
      if (!notice || !away) fail('summary', 'no approved inactivity notice under way in the data');
      const response = await get('/v1/activity/me/summary', chatHeaders(away));
      contract.check('summary', 'GET', '/v1/activity/me/summary', response);
      const effect = dataOf<{ inactivityEffect: { noticeId: string } | null }>(response).inactivityEffect;
      if (effect?.noticeId !== notice.id) fail('summary', `inactivityEffect ${JSON.stringify(effect)}, expected notice ${notice.id}`);
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

  const writes = writeScenarios(ctx, workload, checks);
  const webhooks = webhookScenarios(ctx, writes['start-stop']);
  const byName: Record<ScenarioName, Scenario> = {
    baseline,
    integration,
    summary,
    'staff-month': staffMonth,
    'leaderboard-week': leaderboardWeek,
    'leaderboard-week-deep': leaderboardDeep,
    'leaderboard-month': leaderboardMonth,
    ...writes,
    ...staffScenarios(ctx, workload),
    ...discordScenarios(ctx, workload),
    ...applicationScenarios(ctx, workload),
    ...noticeScenarios(ctx),
    open: openScenario(ctx, workload, [writes.heartbeat, writes['heartbeat-batch'], writes['start-stop']]),
    'start-stop-webhooks': webhooks['start-stop-webhooks'],
    'webhook-delivery': webhooks['webhook-delivery'],
  };
  return SCENARIO_NAMES.map((name) => byName[name]);
}
