import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { buildFixture, dashboardToken, READONLY_USER_ID, seed, type Fixture, type WorkspaceFixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { chatHeaders, addHistory, completedShift, insertActiveShift, notice } from '../reports/helpers.ts';
import { dataOf, errorOf, memberGet, type RosterItemBody } from './helpers.ts';

// Wednesday 2026-03-11 12:00 UTC in Europe/Berlin (UTC+1 until 29 March). Week: Monday 2026-03-09 00:00 local.
const NOW = Date.parse('2026-03-11T12:00:00Z');

interface PageBody {
  staff: RosterItemBody;
  week: {
    period: { start: string; end: string; timezone: string };
    totalSeconds: number;
    totalMinutes: number;
    completedShifts: number;
    requiredMinutes: number;
    progressPercent: number;
  };
  month: { period: { start: string; end: string; timezone: string }; totalSeconds: number; totalMinutes: number; completedShifts: number };
  weeks: { start: string; totalMinutes: number; requiredMinutes: number }[];
  recentShifts: { id: string; startedAt: string; endedAt: string; minutes: number; endReason: string }[];
  notices: Record<string, unknown>[];
  rankChanges: unknown[];
}

describe.each(STORE_KINDS)('GET /v1/staff/{staffId}, a staff member\'s page (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture & { readonly second: WorkspaceFixture };
  let token: string;
  let shiftIds: string[];

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    fixture = buildFixture({ secondWorkspace: true, timezone: 'Europe/Berlin' });
    const { alice, carol } = fixture.ids.staff;
    // Alice: one 90-minute shift a week for 25 weeks back (the oldest first), the current week's on Monday 08:00 local.
    const shifts = Array.from({ length: 25 }, (_, back) => {
      const start = Date.parse('2026-03-09T07:00:00Z') - back * 7 * 86_400_000;
      return completedShift(fixture, alice, new Date(start).toISOString(), new Date(start + 90 * 60_000 + 15_000).toISOString(), 'live');
    });
    shiftIds = shifts.map((s) => s.id);
    addHistory(fixture, {
      shifts: [
        ...shifts,
        // Sunday 8 March 23:30 to Monday 00:30 local: 30 minutes in each week.
        completedShift(fixture, alice, '2026-03-08T22:30:00Z', '2026-03-08T23:30:00Z', 'live'),
        completedShift(fixture, alice, '2026-03-10T08:00:00Z', '2026-03-10T09:00:00Z', 'test'),
        completedShift(fixture, carol, '2026-03-10T08:00:00Z', '2026-03-10T09:00:00Z', 'live'),
      ],
      notices: [
        // The week of 16 February off entirely; then twelve more notices, of which the page shows the last 10.
        notice(alice, '2026-02-15T23:00:00Z', '2026-02-22T23:00:00Z', 'approved', 'private reason'),
        ...Array.from({ length: 12 }, (_, i) =>
          notice(alice, `2025-0${1 + (i % 9)}-${10 + i}T00:00:00Z`, `2025-0${1 + (i % 9)}-${11 + i}T00:00:00Z`, 'denied', 'private reason'),
        ),
      ],
    });
    await seed(ctx, fixture);
    await insertActiveShift(ctx, fixture, { staffId: alice, startedAt: '2026-03-11T11:00:00Z', lastSeenAt: '2026-03-11T11:59:00Z', environment: 'live' });
    token = await dashboardToken(READONLY_USER_ID);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const page = async (staffId: string, query = '') => dataOf<PageBody>(await memberGet(ctx, token, `/v1/staff/${staffId}${query}`));

  it('gives the week, the month and the last 8 weeks in the workspace time zone, each with its requirement', async () => {
    const data = await page(fixture.ids.staff.alice);
    // Monday's 90 minutes 15 seconds and the 30 minutes after Monday 00:00 local: 120 minutes 15 seconds.
    expect(data.week).toEqual({
      period: { start: '2026-03-08T23:00:00.000Z', end: '2026-03-15T23:00:00.000Z', timezone: 'Europe/Berlin' },
      totalSeconds: 7215,
      totalMinutes: 120,
      completedShifts: 2,
      requiredMinutes: 180,
      progressPercent: 66.67,
    });
    expect(data.month.period).toEqual({ start: '2026-02-28T23:00:00.000Z', end: '2026-03-31T22:00:00.000Z', timezone: 'Europe/Berlin' });
    // 2 and 9 March's shifts (90.25 each) and the one across Sunday midnight.
    expect(data.month).toMatchObject({ totalSeconds: 2 * 5415 + 3600, totalMinutes: 240, completedShifts: 3 });
    expect(data.weeks.map((w) => w.start)).toEqual([
      '2026-01-18T23:00:00.000Z',
      '2026-01-25T23:00:00.000Z',
      '2026-02-01T23:00:00.000Z',
      '2026-02-08T23:00:00.000Z',
      '2026-02-15T23:00:00.000Z',
      '2026-02-22T23:00:00.000Z',
      '2026-03-01T23:00:00.000Z',
      '2026-03-08T23:00:00.000Z',
    ]);
    expect(data.weeks.map((w) => w.totalMinutes)).toEqual([90, 90, 90, 90, 90, 90, 120, 120]);
    expect(data.weeks.map((w) => w.requiredMinutes)).toEqual([180, 180, 180, 180, 0, 180, 180, 180]);
    expect(data.staff).toMatchObject({ id: fixture.ids.staff.alice, week: { totalMinutes: 120, requiredMinutes: 180 }, activeShift: { startedAt: '2026-03-11T11:00:00.000Z' } });
  });

  it('agrees with the summary and the per-staff aggregates of the same staff member', async () => {
    const data = await page(fixture.ids.staff.alice);
    const summaryRes = await ctx.inject({
      method: 'GET',
      url: '/v1/activity/me/summary',
      headers: chatHeaders(fixture.keys.live, fixture.staff.alice.chatUserId),
    });
    const summary = dataOf<{ currentWeekMinutes: number; weeklyRequiredMinutes: number; progressPercent: number; currentMonthMinutes: number }>(summaryRes);
    expect(summary).toMatchObject({
      currentWeekMinutes: data.week.totalMinutes,
      weeklyRequiredMinutes: data.week.requiredMinutes,
      progressPercent: data.week.progressPercent,
      currentMonthMinutes: data.month.totalMinutes,
    });
    const aggregates = await ctx.inject({
      method: 'GET',
      url: `/v1/activity/staff/${fixture.staff.alice.gameUserId}?period=month`,
      headers: { authorization: `Bearer ${fixture.keys.live.secret}` },
    });
    const month = (aggregates.json() as { data: Record<string, unknown> }).data;
    expect({ period: month.period, totalSeconds: month.totalSeconds, completedShifts: month.completedShifts }).toEqual({
      period: data.month.period,
      totalSeconds: data.month.totalSeconds,
      completedShifts: data.month.completedShifts,
    });
  });

  it('lists the last 20 completed shifts and the last 10 notices, newest first, never a reason', async () => {
    const data = await page(fixture.ids.staff.alice);
    expect(data.recentShifts).toHaveLength(20);
    expect(data.recentShifts[0]).toEqual({
      id: shiftIds[0],
      startedAt: '2026-03-09T07:00:00.000Z',
      endedAt: '2026-03-09T08:30:15.000Z',
      minutes: 90,
      endReason: 'manual',
    });
    // The shift across midnight started on Sunday: second.
    expect(data.recentShifts[1]?.startedAt).toBe('2026-03-08T22:30:00.000Z');
    const starts = data.recentShifts.map((s) => s.startedAt);
    expect(starts).toEqual([...starts].sort().reverse());
    expect(data.notices).toHaveLength(10);
    expect(data.notices[0]).toMatchObject({ startsAt: '2026-02-15T23:00:00.000Z', status: 'approved', environment: 'live' });
    for (const n of data.notices) {
      expect(Object.keys(n).sort()).toEqual(['createdAt', 'decidedAt', 'endsAt', 'environment', 'id', 'staffId', 'startsAt', 'status']);
    }
    expect(JSON.stringify(data)).not.toContain('private reason');
    expect(data.rankChanges).toEqual([]);
  });

  it('reads the environment asked for', async () => {
    const data = await page(fixture.ids.staff.alice, '?environment=test');
    expect(data.week).toMatchObject({ totalMinutes: 60, completedShifts: 1 });
    expect(data.recentShifts.map((s) => s.startedAt)).toEqual(['2026-03-10T08:00:00.000Z']);
    expect(data.notices).toEqual([]);
    expect(data.staff.activeShift).toBeNull();
  });

  it('shows inactive staff too, and ids in any case', async () => {
    const data = await page(fixture.ids.staff.carol.toUpperCase());
    expect(data.staff).toMatchObject({ id: fixture.ids.staff.carol, status: 'inactive', week: { totalMinutes: 60 } });
  });

  it('another workspace\'s staff member, an unknown one and a malformed id are 404', async () => {
    for (const id of [fixture.second.ids.staff.alice, '00000000-0000-4000-8000-000000000000', 'alice']) {
      const res = await memberGet(ctx, token, `/v1/staff/${id}`);
      expect([res.statusCode, errorOf(res).code]).toEqual([404, 'not_found']);
    }
    const bad = await memberGet(ctx, token, `/v1/staff/${fixture.ids.staff.alice}?environment=prod`);
    expect(bad.statusCode).toBe(400);
  });
});
