import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { bearer, buildFixture, seed, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, completedShift, insertActiveShift } from './helpers.ts';

// Wednesday 2026-03-11 12:00 UTC (13:00 in Berlin, CET).
const NOW = Date.parse('2026-03-11T12:00:00Z');

interface StaffActivity {
  staff: { id: string; displayName: string; gameUserId: string };
  period: { start: string; end: string; timezone: string };
  totalSeconds: number;
  totalMinutes: number;
  completedShifts: number;
  activeShift: null | { id: string; elapsedSeconds: number; startedAt: string; lastHeartbeatAt: string };
}

describe.each(STORE_KINDS)('GET /v1/activity/staff/{gameUserId} (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let activeId: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    fixture = buildFixture({ timezone: 'Europe/Berlin' });
    const alice = fixture.ids.staff.alice;
    addHistory(fixture, {
      shifts: [
        // Berlin week: 2026-03-08T23:00Z .. 2026-03-15T23:00Z; month: 2026-02-28T23:00Z .. 2026-03-31T22:00Z.
        // Across the week start: 60 of its 120 minutes fall in this week.
        completedShift(fixture, alice, '2026-03-08T22:00:00Z', '2026-03-09T00:00:00Z'),
        // 45 min 30.5 s inside the week.
        completedShift(fixture, alice, '2026-03-10T10:00:00Z', '2026-03-10T10:45:30.500Z'),
        // 29.5 s: with the one above, 2760 s of the week (46 min), not 2730 + 29.
        completedShift(fixture, alice, '2026-03-10T11:00:00Z', '2026-03-10T11:00:29.500Z'),
        // A zero-length shift at the very start of the week counts as a shift with no time.
        completedShift(fixture, alice, '2026-03-08T23:00:00Z', '2026-03-08T23:00:00Z'),
        // Ends exactly where the week starts: not in the week.
        completedShift(fixture, alice, '2026-03-08T21:00:00Z', '2026-03-08T23:00:00Z'),
        // Starts exactly where the week ends: not in the week.
        completedShift(fixture, alice, '2026-03-15T23:00:00Z', '2026-03-16T00:00:00Z'),
        // Across the month start: 45 minutes in March.
        completedShift(fixture, alice, '2026-02-28T22:00:00Z', '2026-02-28T23:45:00Z'),
        // Live-environment work: never seen by a test key.
        completedShift(fixture, alice, '2026-03-10T12:00:00Z', '2026-03-10T17:00:00Z', 'live'),
      ],
    });
    await seed(ctx, fixture);
    activeId = await insertActiveShift(ctx, fixture, {
      staffId: alice,
      startedAt: '2026-03-11T11:30:00Z',
      lastHeartbeatAt: '2026-03-11T11:58:00Z',
      lastSeenAt: '2026-03-11T11:58:00Z',
    });
    // Bob's shift timed out (last received 11:40, the timeout is 300 s): it ended at its last heartbeat.
    await insertActiveShift(ctx, fixture, {
      staffId: fixture.ids.staff.bob,
      startedAt: '2026-03-11T11:00:00Z',
      lastHeartbeatAt: '2026-03-11T11:40:00Z',
      lastSeenAt: '2026-03-11T11:40:00Z',
    });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function get(path: string, key = fixture.keys.test) {
    ctx.clock.set(NOW);
    return ctx.inject({ method: 'GET', url: `/v1/activity/staff/${path}`, headers: bearer(key.secret) });
  }

  async function activity(path: string, key = fixture.keys.test): Promise<StaffActivity> {
    const res = await get(path, key);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: StaffActivity; meta?: unknown };
    expect(Object.keys(body)).toEqual(['data']);
    return body.data;
  }

  it('defaults to the current week in the workspace time zone, answering with data only', async () => {
    const data = await activity('1001');
    expect(data.staff).toEqual({ id: fixture.ids.staff.alice, displayName: 'Alice', gameUserId: '1001' });
    expect(data.period).toEqual({
      start: '2026-03-08T23:00:00.000Z',
      end: '2026-03-15T23:00:00.000Z',
      timezone: 'Europe/Berlin',
    });
    // 3600 + 2730.5 + 29.5 + 0 = 6360 s
    expect(data.totalSeconds).toBe(6360);
    expect(data.totalMinutes).toBe(106);
    expect(data.completedShifts).toBe(4);
  });

  it('reports the live active shift without counting it', async () => {
    const data = await activity('1001');
    expect(data.activeShift).toMatchObject({
      id: activeId,
      startedAt: '2026-03-11T11:30:00.000Z',
      lastHeartbeatAt: '2026-03-11T11:58:00.000Z',
      elapsedSeconds: 1800,
    });
    expect(data.totalSeconds).toBe(6360);
  });

  it('treats an unrecognized period as the week', async () => {
    const data = await activity('1001?period=fortnight');
    expect(data.period.start).toBe('2026-03-08T23:00:00.000Z');
    expect(data.totalSeconds).toBe(6360);
  });

  it('reports the month', async () => {
    const data = await activity('1001?period=month');
    expect(data.period).toEqual({
      start: '2026-02-28T23:00:00.000Z',
      end: '2026-03-31T22:00:00.000Z',
      timezone: 'Europe/Berlin',
    });
    // 2700 + 7200 + 2730.5 + 29.5 + 0 + 7200 + 3600 = 23460 s
    expect(data.totalSeconds).toBe(23460);
    expect(data.totalMinutes).toBe(391);
    expect(data.completedShifts).toBe(7);
  });

  it('clips shifts to a custom range, which overrides period', async () => {
    // 10:30 to 11:00:10 UTC (the end sent as 12:00:10+01:00): 930.5 s of the first shift, 10 s of the second.
    const data = await activity('1001?period=month&start=2026-03-10T10:30:00Z&end=2026-03-10T12:00:10%2B01:00');
    expect(data.period).toEqual({
      start: '2026-03-10T10:30:00.000Z',
      end: '2026-03-10T11:00:10.000Z',
      timezone: 'Europe/Berlin',
    });
    expect(data.totalSeconds).toBe(940);
    expect(data.totalMinutes).toBe(15);
    expect(data.completedShifts).toBe(2);
  });

  it('accepts a range of exactly 366 days', async () => {
    const data = await activity('1001?start=2025-03-11T00:00:00Z&end=2026-03-12T00:00:00Z');
    // Every test-environment shift but the one starting on 2026-03-15.
    expect(data.completedShifts).toBe(6);
    // 7200 + 7200 + 6300 (all of the shift across the month start) + 2730.5 + 29.5 + 0
    expect(data.totalSeconds).toBe(23460);
  });

  it('counts a timed-out active shift as completed at its last heartbeat', async () => {
    const data = await activity('1002');
    expect(data.activeShift).toBeNull();
    expect(data.totalSeconds).toBe(2400);
    expect(data.completedShifts).toBe(1);
  });

  it('sees only live-environment shifts with a live key', async () => {
    const data = await activity('1001', fixture.keys.live);
    expect(data.totalSeconds).toBe(18000);
    expect(data.completedShifts).toBe(1);
    expect(data.activeShift).toBeNull();
  });

  it('answers for inactive staff with zero totals', async () => {
    const data = await activity('1003');
    expect(data.staff.displayName).toBe('Carol');
    expect(data.totalSeconds).toBe(0);
    expect(data.totalMinutes).toBe(0);
    expect(data.completedShifts).toBe(0);
  });

  it('is 404 for a game user id with no staff member in the workspace', async () => {
    const res = await get('424242');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('is 404 for staff of another workspace', async () => {
    const other = buildFixture();
    other.workspace.staff = other.workspace.staff?.map((s) => ({ ...s, gameUserId: `9${s.gameUserId}` }));
    await seed(ctx, other);
    const res = await get('91001');
    expect(res.statusCode).toBe(404);
  });

  it.each([
    ['start alone', '?start=2026-03-10T00:00:00Z'],
    ['end alone', '?end=2026-03-10T00:00:00Z'],
    ['a malformed start', '?start=yesterday&end=2026-03-10T00:00:00Z'],
    ['a date without time', '?start=2026-03-09&end=2026-03-10T00:00:00Z'],
    ['end equal to start', '?start=2026-03-10T00:00:00Z&end=2026-03-10T00:00:00Z'],
    ['end before start', '?start=2026-03-10T00:00:00Z&end=2026-03-09T00:00:00Z'],
    ['a range over 366 days', '?start=2025-03-11T00:00:00Z&end=2026-03-12T00:00:01Z'],
  ])('is 400 for %s', async (_label, query) => {
    const res = await get(`1001${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });

  it('validates the period before looking the staff member up (400, not 404)', async () => {
    const res = await get('424242?start=2026-03-10T00:00:00Z');
    expect(res.statusCode).toBe(400);
  });
});
