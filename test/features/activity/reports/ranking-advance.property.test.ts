/**
 * Property: a leaderboard kept between requests and brought forward by recomputing only the staff a write
 * changed (RankingCache with `advance`, activity_changes) is always the ranking a computation from the raw
 * shifts gives, and every progress the one the approved notices read from the database give; and the roster gives
 * every staff member's week figures (minutes, requirement, progress) as that computation does, for the active staff
 * and for all of them. Random sequences of starts, stops, server stops, heartbeat silence (timeouts), sweeps,
 * provisioning, and inactivity notices asked for, decided and cancelled, written through two gateway instances on
 * one database, each read through both instances, on both stores.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/app.ts';
import type { Store } from '../../../../src/db/connect.ts';
import {
  clipMs,
  overlaps,
  progressPercent,
  requirementForPeriod,
  waivedForNotices,
} from '../../../../src/features/activity/periods/period-math.ts';
import { weekPeriod } from '../../../../src/features/activity/periods/periods.ts';
import { sweepTimedOutShifts } from '../../../../src/features/activity/shifts/sweep.ts';
import { applyProvisioning } from '../../../../src/provisioning/apply.ts';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { checkedInject, type Inject } from '../../../helpers/contract.ts';
import {
  bearer,
  buildFixture,
  dashboardToken,
  GUILD_ID,
  REVIEWER_USER_ID,
  seed,
  UNIVERSE_ID,
  type Fixture,
} from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, completedShift } from './helpers.ts';

// Wednesday 2026-03-11 12:00 UTC.
const NOW = Date.parse('2026-03-11T12:00:00Z');
const TIMEOUT_SECONDS = 300;
const ZONE = 'Europe/Berlin';
const LEADERBOARD = '/v1/activity/leaderboard?period=week&limit=100';
const ROSTER = '/v1/staff?environment=test&limit=100';

type Command =
  | { readonly op: 'start'; readonly staff: number; readonly via: number; readonly backdateMinutes: number }
  | { readonly op: 'stop'; readonly staff: number; readonly via: number }
  | { readonly op: 'heartbeat'; readonly staff: number; readonly via: number }
  | { readonly op: 'wait'; readonly seconds: number }
  | { readonly op: 'sweep'; readonly chunk: number }
  | { readonly op: 'serverStop'; readonly via: number }
  | { readonly op: 'provision'; readonly inactive: number | null }
  | { readonly op: 'askNotice'; readonly staff: number; readonly via: number; readonly startHours: number; readonly hours: number }
  | { readonly op: 'decideNotice'; readonly staff: number; readonly via: number; readonly approve: boolean }
  | { readonly op: 'cancelNotice'; readonly staff: number; readonly via: number };

const STAFF = 3;
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('start' as const), staff: fc.nat(STAFF - 1), via: fc.nat(1), backdateMinutes: fc.nat(180) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('stop' as const), staff: fc.nat(STAFF - 1), via: fc.nat(1) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('heartbeat' as const), staff: fc.nat(STAFF - 1), via: fc.nat(1) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('wait' as const), seconds: fc.oneof(fc.nat(60), fc.integer({ min: 250, max: 400 })) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('sweep' as const), chunk: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('serverStop' as const), via: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('provision' as const), inactive: fc.option(fc.nat(STAFF - 1), { nil: null }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('askNotice' as const),
      staff: fc.nat(STAFF - 1),
      via: fc.nat(1),
      startHours: fc.integer({ min: -48, max: 96 }),
      hours: fc.integer({ min: 1, max: 96 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('decideNotice' as const), staff: fc.nat(STAFF - 1), via: fc.nat(1), approve: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cancelNotice' as const), staff: fc.nat(STAFF - 1), via: fc.nat(1) }) },
);

interface Entry {
  readonly staffId: string;
  readonly totalSeconds: number;
  readonly completedShifts: number;
  readonly position: number;
  readonly progressPercent: number;
}

/** A staff member's week as the roster gives it. */
interface Week {
  readonly staffId: string;
  readonly totalMinutes: number;
  readonly requiredMinutes: number;
  readonly progressPercent: number;
}

const byStaffId = (a: Week, b: Week) => (a.staffId < b.staffId ? -1 : a.staffId > b.staffId ? 1 : 0);

describe.each(STORE_KINDS)('leaderboards brought forward by the staff a write changed (%s)', (kind) => {
  let ctx: TestContext;
  let secondStore: Store;
  let second: FastifyInstance;
  let instances: Inject[];

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW, env: { SHIFT_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) } });
    secondStore = ctx.database.open();
    second = await buildApp({ config: ctx.config, store: secondStore, clock: ctx.clock, logger: false });
    instances = [ctx.inject, await checkedInject(second)];
  });
  afterAll(async () => {
    await second?.close();
    await secondStore?.close();
    await ctx?.close();
  });

  /**
   * The week ranking straight from the raw shifts (completed ones, and active ones timed out), and each progress
   * from the weekly requirement (the fixture's: alice's department 180, bob's own 60, carol the workspace's 120)
   * less what the approved test-environment notices read from the database waive. `weeks`: every staff member's
   * week figures, by staff id.
   */
  async function reference(fixture: Fixture, ranked: ReadonlySet<string>): Promise<{ entries: Entry[]; weeks: Week[] }> {
    const now = ctx.clock.now();
    const period = weekPeriod(now, ZONE);
    const timedOutBefore = now - TIMEOUT_SECONDS * 1000;
    const rows = await ctx.store.db
      .selectFrom('shifts')
      .selectAll()
      .where('workspace_id', '=', fixture.ids.workspaceId)
      .where('environment', '=', 'test')
      .execute();
    const staffIds = (fixture.workspace.staff ?? []).map((s) => s.id);
    const worked = new Map<string, { ms: number; count: number }>(staffIds.map((id) => [id, { ms: 0, count: 0 }]));
    for (const row of rows) {
      const start = Number(row.started_at);
      let end: number;
      if (row.status === 'completed' && row.ended_at !== null) end = Number(row.ended_at);
      else if (row.status === 'active' && Number(row.last_seen_at) < timedOutBefore) end = Number(row.last_heartbeat_at);
      else continue;
      const entry = worked.get(row.staff_id);
      if (entry === undefined || !overlaps(start, end, period)) continue;
      entry.ms += clipMs(start, end, period);
      entry.count += 1;
    }
    const notices = await ctx.store.db
      .selectFrom('inactivity_notices')
      .select(['staff_id', 'starts_at', 'ends_at'])
      .where('workspace_id', '=', fixture.ids.workspaceId)
      .where('environment', '=', 'test')
      .where('status', '=', 'approved')
      .execute();
    const weekly = new Map([
      [fixture.ids.staff.alice, 180],
      [fixture.ids.staff.bob, 60],
      [fixture.ids.staff.carol, 120],
    ]);
    const weekOf = (staffId: string, totalSeconds: number): Week => {
      const requirement = requirementForPeriod(weekly.get(staffId) ?? 0, period, 'calendar');
      const intervals = notices.filter((n) => n.staff_id === staffId).map((n) => ({ start: Number(n.starts_at), end: Number(n.ends_at) }));
      const waived = intervals.length === 0 ? 0 : waivedForNotices(requirement, intervals, period);
      const required = Math.max(0, requirement - waived);
      const totalMinutes = Math.floor(totalSeconds / 60);
      return { staffId, totalMinutes, requiredMinutes: required, progressPercent: progressPercent(totalMinutes, required) };
    };
    const all = [...worked].map(([staffId, w]) => ({ staffId, totalSeconds: Math.floor(w.ms / 1000), completedShifts: w.count }));
    const list = all.filter((e) => ranked.has(e.staffId));
    list.sort((a, b) => b.totalSeconds - a.totalSeconds || (a.staffId < b.staffId ? -1 : a.staffId > b.staffId ? 1 : 0));
    return {
      entries: list.map((e, i) => ({ ...e, position: i + 1, progressPercent: weekOf(e.staffId, e.totalSeconds).progressPercent })),
      weeks: all.map((e) => weekOf(e.staffId, e.totalSeconds)).sort(byStaffId),
    };
  }

  it('every read equals the ranking computed from the raw shifts', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 24 }), async (commands) => {
        run += 1;
        ctx.clock.set(NOW + run * 7 * 24 * 3600 * 1000);
        const fixture = buildFixture({ timezone: ZONE });
        fixture.workspace.staff = fixture.workspace.staff?.map((s) => ({ ...s, status: 'active' as const }));
        const staffIds = (fixture.workspace.staff ?? []).map((s) => s.id);
        const weekStart = weekPeriod(ctx.clock.now(), ZONE).start;
        addHistory(fixture, {
          shifts: staffIds.map((id, i) =>
            completedShift(fixture, id, new Date(weekStart + (i + 1) * 3600_000).toISOString(), new Date(weekStart + (2 * i + 2) * 3600_000).toISOString()),
          ),
        });
        await seed(ctx, fixture);
        const ranked = new Set(staffIds);
        const auth = bearer(fixture.keys.test.secret);
        let key = 0;
        const post = (via: number, url: string, payload: object) =>
          instances[via]!({ method: 'POST', url, headers: { ...auth, 'idempotency-key': `k-${run}-${(key += 1)}` }, payload });
        const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: ctx.clock.now() + 365 * 24 * 3600_000 });
        const staffCall = (via: number, staff: number, url: string, payload: object) =>
          instances[via]!({
            method: 'POST',
            url,
            headers: {
              ...auth,
              'idempotency-key': `k-${run}-${(key += 1)}`,
              'x-chat-guild-id': GUILD_ID,
              'x-acting-chat-user-id': fixture.workspace.staff?.[staff]?.chatUserId ?? '',
            },
            payload,
          });
        const latestNotice = async (staff: number, statuses: string[]) =>
          ctx.store.db
            .selectFrom('inactivity_notices')
            .select('id')
            .where('staff_id', '=', staffIds[staff] ?? '')
            .where('environment', '=', 'test')
            .where('status', 'in', statuses)
            .orderBy('created_at', 'desc')
            .orderBy('id')
            .executeTakeFirst();
        const activeShift = async (staffId: string) =>
          ctx.store.db
            .selectFrom('shifts')
            .select('id')
            .where('staff_id', '=', staffId)
            .where('environment', '=', 'test')
            .where('status', '=', 'active')
            .executeTakeFirst();

        const board = async (inject: Inject) => {
          const res = await inject({ method: 'GET', url: LEADERBOARD, headers: auth });
          expect(res.statusCode).toBe(200);
          return (res.json() as { data: { entries: Entry[] } }).data.entries.map((e) => ({
            staffId: e.staffId,
            totalSeconds: e.totalSeconds,
            completedShifts: e.completedShifts,
            position: e.position,
            progressPercent: e.progressPercent,
          }));
        };
        const member = { authorization: `Bearer ${token}`, 'x-service-workspace-id': fixture.ids.workspaceId };
        const roster = async (inject: Inject, status: 'active' | 'all'): Promise<Week[]> => {
          const res = await inject({ method: 'GET', url: `${ROSTER}&status=${status}`, headers: member });
          expect(res.statusCode).toBe(200);
          const staff = (res.json() as { data: { staff: { id: string; week: Omit<Week, 'staffId'> }[] } }).data.staff;
          return staff.map(({ id, week }) => ({ staffId: id, ...week })).sort(byStaffId);
        };
        const check = async (step: string) => {
          const want = await reference(fixture, ranked);
          const wantActive = want.weeks.filter((w) => ranked.has(w.staffId));
          for (const [i, inject] of instances.entries()) {
            const entries = await board(inject);
            const active = await roster(inject, 'active');
            const all = await roster(inject, 'all');
            expect({ step, instance: i, entries, active, all }).toEqual({ step, instance: i, entries: want.entries, active: wantActive, all: want.weeks });
          }
        };

        await check('seeded');
        for (const [n, command] of commands.entries()) {
          const step = `${n}: ${JSON.stringify(command)}`;
          if (command.op === 'start') {
            const staff = fixture.workspace.staff?.[command.staff];
            if (!staff) throw new Error('no staff');
            const startedAt = new Date(ctx.clock.now() - command.backdateMinutes * 60_000).toISOString();
            const res = await post(command.via, '/v1/activity/shifts/start', {
              gameUserId: staff.gameUserId,
              universeId: UNIVERSE_ID,
              placeId: '7',
              serverId: 'srv-1',
              startedAt,
            });
            // 403: the staff member is inactive (provisioned so).
            expect([200, 403, 409, 422]).toContain(res.statusCode);
          } else if (command.op === 'stop' || command.op === 'heartbeat') {
            const shift = await activeShift(staffIds[command.staff] ?? '');
            if (shift) {
              const url = `/v1/activity/shifts/${shift.id}/${command.op}`;
              const res = await post(command.via, url, command.op === 'stop' ? { reason: 'manual' } : {});
              expect([200, 409]).toContain(res.statusCode);
            }
          } else if (command.op === 'wait') {
            ctx.clock.advance(command.seconds * 1000);
          } else if (command.op === 'sweep') {
            await sweepTimedOutShifts({
              write: (job) => ctx.store.write(job),
              clock: ctx.clock,
              config: { shiftTimeoutSeconds: TIMEOUT_SECONDS },
              chunk: command.chunk,
            });
          } else if (command.op === 'serverStop') {
            // Every active shift of the server in one transaction: one version that changed several staff.
            const res = await post(command.via, '/v1/activity/servers/srv-1/stop', { reason: 'server_shutdown' });
            expect(res.statusCode).toBe(200);
          } else if (command.op === 'askNotice') {
            const start = ctx.clock.now() + command.startHours * 3600_000;
            const res = await staffCall(command.via, command.staff, '/v1/staff/me/inactivity-notices', {
              startsAt: new Date(start).toISOString(),
              endsAt: new Date(start + command.hours * 3600_000).toISOString(),
              reason: 'away',
            });
            // 400: it would have ended already; 403: the staff member is inactive; 409: it overlaps another.
            expect([200, 400, 403, 409]).toContain(res.statusCode);
          } else if (command.op === 'decideNotice') {
            const notice = await latestNotice(command.staff, ['pending']);
            if (notice) {
              const operation = command.approve ? 'approve' : 'deny';
              const res = await instances[command.via]!({
                method: 'POST',
                url: `/v1/staff/inactivity-notices/${notice.id}/${operation}`,
                headers: { authorization: `Bearer ${token}`, 'idempotency-key': `k-${run}-${(key += 1)}` },
              });
              expect([200, 409]).toContain(res.statusCode);
            }
          } else if (command.op === 'cancelNotice') {
            const notice = await latestNotice(command.staff, ['pending', 'approved']);
            if (notice) {
              const res = await staffCall(command.via, command.staff, `/v1/staff/me/inactivity-notices/${notice.id}/cancel`, {});
              expect([200, 409]).toContain(res.statusCode);
            }
          } else {
            // Provisioning through a connection of its own (as the CLI does): who is ranked may change.
            const document = structuredClone(fixture.document);
            for (const staff of document.workspaces[0]?.staff ?? []) {
              staff.status = staff.id === staffIds[command.inactive ?? -1] ? 'inactive' : 'active';
            }
            const other = ctx.database.open();
            try {
              await applyProvisioning(other.db, document, ctx.clock);
            } finally {
              await other.close();
            }
            ranked.clear();
            for (const staff of document.workspaces[0]?.staff ?? []) if (staff.status === 'active') ranked.add(staff.id);
          }
          await check(step);
        }
      }),
      { numRuns: Number(process.env.RANKING_PROPERTY_RUNS ?? 25) },
    );
  }, 600_000);
});
