import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffDocument } from '../../../../src/provisioning/schema.ts';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { bearer, buildFixture, seed, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, noticesIn, completedShift, insertActiveShift, notice, orderedId } from './helpers.ts';

// Wednesday 2026-03-11 12:00 UTC; the workspace is on UTC. Week: 2026-03-09 .. 2026-03-16; month: March.
const NOW = Date.parse('2026-03-11T12:00:00Z');
const URL = '/v1/activity/leaderboard';

interface Entry {
  staffId: string;
  displayName: string;
  gameUserId: string;
  gameUsername: string;
  totalSeconds: number;
  totalMinutes: number;
  completedShifts: number;
  department: string;
  rank: string;
  progressPercent: number;
  position: number;
}
interface Board {
  entries: Entry[];
  nextCursor: { cursorTotalSeconds: number; cursorStaffId: string } | null;
  period: { start: string; end: string; timezone: string };
}

// Staff ids sort in this order: Ann < Ben < Cat < Dan < Eve < Fay < Gus < Hal.
const BLOCK = 0xa1;
const id = (n: number) => orderedId(BLOCK, n);
const ANN = id(1);
const BEN = id(2);
const CAT = id(3);
const DAN = id(4);
const EVE = id(5);
const FAY = id(6);
const GUS = id(7);
const HAL = id(8);

describe.each(STORE_KINDS)('GET /v1/activity/leaderboard (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    fixture = buildFixture();
    const { moderation, support } = fixture.ids.departments;
    const member = (
      n: number,
      name: string,
      extra: Pick<StaffDocument, 'departmentId' | 'rank' | 'status' | 'weeklyRequiredMinutes'>,
    ): StaffDocument => ({
      id: id(n),
      displayName: name,
      gameUserId: String(7000 + n),
      gameUsername: name.toLowerCase(),
      ...extra,
    });
    // Replaces alice, bob and carol. Requirements: moderation 180, support none of its own, workspace 120.
    fixture.workspace.staff = [
      member(1, 'Ann', { departmentId: moderation, rank: 'Moderator', status: 'active' }),
      member(2, 'Ben', { departmentId: support, rank: null, status: 'active' }),
      member(3, 'Cat', { rank: 'Helper', status: 'active' }),
      member(4, 'Dan', { departmentId: moderation, rank: 'Trial', status: 'active', weeklyRequiredMinutes: 60 }),
      member(5, 'Eve', { departmentId: support, status: 'inactive' }),
      member(6, 'Fay', { departmentId: support, status: 'active' }),
      member(7, 'Gus', { departmentId: moderation, status: 'active' }),
      member(8, 'Hal', { status: 'active' }),
    ];
    addHistory(fixture, {
      shifts: [
        completedShift(fixture, ANN, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z'),
        completedShift(fixture, BEN, '2026-03-09T08:00:00Z', '2026-03-09T10:00:00Z'),
        completedShift(fixture, CAT, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z'),
        completedShift(fixture, GUS, '2026-03-10T12:00:00Z', '2026-03-10T13:30:00Z'),
        completedShift(fixture, HAL, '2026-03-09T00:00:00Z', '2026-03-09T00:30:00Z'),
        completedShift(fixture, HAL, '2026-03-12T20:00:00Z', '2026-03-12T20:30:00Z'),
        completedShift(fixture, EVE, '2026-03-11T00:00:00Z', '2026-03-11T03:00:00Z'),
        // Dan: last week; zero-length at the week start (counts, no time); ending at the week start (not in it);
        // zero-length at the week end (not in it).
        completedShift(fixture, DAN, '2026-03-08T10:00:00Z', '2026-03-08T11:00:00Z'),
        completedShift(fixture, DAN, '2026-03-09T00:00:00Z', '2026-03-09T00:00:00Z'),
        completedShift(fixture, DAN, '2026-03-08T23:00:00Z', '2026-03-09T00:00:00Z'),
        completedShift(fixture, DAN, '2026-03-16T00:00:00Z', '2026-03-16T00:00:00Z'),
        // Fay worked only with the live key.
        completedShift(fixture, FAY, '2026-03-10T00:00:00Z', '2026-03-10T05:00:00Z', 'live'),
      ],
      notices: [
        // Cat: approved, the first 24 h of the week.
        notice(CAT, '2026-03-09T00:00:00Z', '2026-03-10T00:00:00Z', 'approved'),
        // Hal: pending and denied, ignored.
        notice(HAL, '2026-03-09T00:00:00Z', '2026-03-16T00:00:00Z', 'pending'),
        notice(HAL, '2026-03-09T00:00:00Z', '2026-03-16T00:00:00Z', 'denied'),
      ],
    });
    await seed(ctx, fixture);
    // Read with the test key: its notices are the test environment's.
    await noticesIn(ctx, fixture, 'test');
    // Fay's live active shift is not counted; Cat's timed out (last received 11:30, timeout 300 s) and counts
    // as completed at its last heartbeat: 30 minutes.
    await insertActiveShift(ctx, fixture, {
      staffId: FAY,
      startedAt: '2026-03-11T09:00:00Z',
      lastHeartbeatAt: '2026-03-11T11:59:00Z',
      lastSeenAt: '2026-03-11T11:59:00Z',
    });
    await insertActiveShift(ctx, fixture, {
      staffId: CAT,
      startedAt: '2026-03-11T11:00:00Z',
      lastHeartbeatAt: '2026-03-11T11:30:00Z',
      lastSeenAt: '2026-03-11T11:30:00Z',
    });
    // Another workspace's staff and work never appear.
    const other = buildFixture();
    other.workspace.staff = other.workspace.staff?.map((s) => ({ ...s, gameUserId: `8${s.gameUserId}` }));
    addHistory(other, {
      shifts: [completedShift(other, other.ids.staff.alice, '2026-03-10T00:00:00Z', '2026-03-10T09:00:00Z')],
    });
    await seed(ctx, other);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function request(query = '', key = fixture.keys.test) {
    ctx.clock.set(NOW);
    return ctx.inject({ method: 'GET', url: `${URL}${query}`, headers: bearer(key.secret) });
  }

  async function board(query = '', key = fixture.keys.test): Promise<Board> {
    const res = await request(query, key);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: Board; meta: { requestId: string } };
    expect(body.meta.requestId).toBe(res.headers['x-request-id']);
    return body.data;
  }

  /** [staffId, totalSeconds, position] of each entry. */
  const ranking = (data: Board) => data.entries.map((e) => [e.staffId, e.totalSeconds, e.position]);

  describe('order and contents', () => {
    it('ranks every active staff member of the workspace for the week, zero totals included', async () => {
      const data = await board();
      expect(data.period).toEqual({ start: '2026-03-09T00:00:00.000Z', end: '2026-03-16T00:00:00.000Z', timezone: 'UTC' });
      // Cat and Gus tie at 5400 s, Ann and Hal at 3600 s, Dan and Fay at 0: by staffId within a tie.
      expect(ranking(data)).toEqual([
        [BEN, 7200, 1],
        [CAT, 5400, 2],
        [GUS, 5400, 3],
        [ANN, 3600, 4],
        [HAL, 3600, 5],
        [DAN, 0, 6],
        [FAY, 0, 7],
      ]);
      expect(data.nextCursor).toBeNull();
    });

    it('fills every entry field', async () => {
      const data = await board();
      const byId = new Map(data.entries.map((e) => [e.staffId, e]));
      expect(byId.get(ANN)).toEqual({
        staffId: ANN,
        displayName: 'Ann',
        gameUserId: '7001',
        gameUsername: 'ann',
        totalSeconds: 3600,
        totalMinutes: 60,
        completedShifts: 1,
        department: 'Moderation',
        rank: 'Moderator',
        progressPercent: 33.33,
        position: 4,
      });
      // Unset department and rank are "".
      expect(byId.get(BEN)).toMatchObject({ department: 'Support', rank: '' });
      expect(byId.get(CAT)).toMatchObject({ department: '', rank: 'Helper', completedShifts: 2, totalMinutes: 90 });
      // The zero-length shift at the week start counts as a shift.
      expect(byId.get(DAN)).toMatchObject({ totalSeconds: 0, completedShifts: 1 });
      expect(byId.get(FAY)).toMatchObject({ totalSeconds: 0, completedShifts: 0 });
    });

    it('computes progress against each requirement, lowered by approved notices only', async () => {
      const data = await board();
      const progress = Object.fromEntries(data.entries.map((e) => [e.displayName, e.progressPercent]));
      expect(progress).toEqual({
        Ben: 100, // 120 / 120 (workspace)
        Cat: 87.38, // 90 / (120 − floor(120 × 24 / 168) = 103)
        Gus: 50, // 90 / 180 (moderation)
        Ann: 33.33, // 60 / 180
        Hal: 50, // 60 / 120; the pending and denied notices are ignored
        Dan: 0, // 0 / 60 (own)
        Fay: 0,
      });
    });

    it('includes inactive staff with includeInactive=true or 1 only', async () => {
      for (const value of ['true', '1']) {
        const data = await board(`?includeInactive=${value}`);
        expect(ranking(data)[0]).toEqual([EVE, 10800, 1]);
        expect(data.entries.map((e) => e.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        expect(data.entries[0]?.progressPercent).toBe(150);
      }
      for (const value of ['false', '0', 'yes', 'TRUE', '']) {
        const data = await board(`?includeInactive=${value}`);
        expect(data.entries.map((e) => e.staffId)).not.toContain(EVE);
        expect(data.entries).toHaveLength(7);
      }
    });

    it('ranks the month, with its own requirement scale', async () => {
      const data = await board('?period=month');
      expect(data.period).toEqual({ start: '2026-03-01T00:00:00.000Z', end: '2026-04-01T00:00:00.000Z', timezone: 'UTC' });
      // Dan: 3600 (last week) + 3600 (ending at the week start) + two zero-length shifts.
      expect(ranking(data)).toEqual([
        [BEN, 7200, 1],
        [DAN, 7200, 2],
        [CAT, 5400, 3],
        [GUS, 5400, 4],
        [ANN, 3600, 5],
        [HAL, 3600, 6],
        [FAY, 0, 7],
      ]);
      expect(data.entries.find((e) => e.staffId === DAN)?.completedShifts).toBe(4);
      // Requirement × 31 / 7: Ben 531.43, Dan 265.71, Gus and Ann 797.14, Hal 531.43; Cat 531.43 − 17.
      const progress = Object.fromEntries(data.entries.map((e) => [e.displayName, e.progressPercent]));
      expect(progress).toEqual({ Ben: 22.58, Dan: 45.16, Cat: 17.5, Gus: 11.29, Ann: 7.53, Hal: 11.29, Fay: 0 });
    });

    it('ranks a custom range, which overrides period, scaling requirements by elapsed time', async () => {
      // 3.5 days: requirements are halved. Cat's notice covers 24 of its 84 hours.
      const data = await board('?period=month&start=2026-03-09T00:00:00Z&end=2026-03-12T12:00:00Z');
      expect(data.period).toEqual({ start: '2026-03-09T00:00:00.000Z', end: '2026-03-12T12:00:00.000Z', timezone: 'UTC' });
      expect(ranking(data)).toEqual([
        [BEN, 7200, 1],
        [CAT, 5400, 2],
        [GUS, 5400, 3],
        [ANN, 3600, 4],
        [HAL, 1800, 5],
        [DAN, 0, 6],
        [FAY, 0, 7],
      ]);
      const progress = Object.fromEntries(data.entries.map((e) => [e.displayName, e.progressPercent]));
      // Ben 120/60, Cat 90/(60 − floor(60 × 24 / 84) = 43), Gus 90/90, Ann 60/90, Hal 30/60.
      expect(progress).toEqual({ Ben: 200, Cat: 209.3, Gus: 100, Ann: 66.67, Hal: 50, Dan: 0, Fay: 0 });
    });

    it('treats an unrecognized period as the week', async () => {
      const data = await board('?period=year');
      expect(data.period.start).toBe('2026-03-09T00:00:00.000Z');
      expect(data.entries[0]?.totalSeconds).toBe(7200);
    });

    it('sees only the live environment with a live key', async () => {
      const data = await board('', fixture.keys.live);
      expect(ranking(data)).toEqual([
        [FAY, 18000, 1],
        [ANN, 0, 2],
        [BEN, 0, 3],
        [CAT, 0, 4],
        [DAN, 0, 5],
        [GUS, 0, 6],
        [HAL, 0, 7],
      ]);
      expect(data.entries[0]).toMatchObject({ completedShifts: 1, progressPercent: 250 });
    });
  });

  describe('pages', () => {
    it('walks the ranking two at a time with absolute positions, no repeats or gaps', async () => {
      const pages: Board[] = [];
      let query = '?limit=2';
      for (;;) {
        const page = await board(query);
        pages.push(page);
        if (!page.nextCursor) break;
        const { cursorTotalSeconds, cursorStaffId } = page.nextCursor;
        query = `?limit=2&cursorTotalSeconds=${cursorTotalSeconds}&cursorStaffId=${cursorStaffId}`;
      }
      expect(pages.map(ranking)).toEqual([
        [
          [BEN, 7200, 1],
          [CAT, 5400, 2],
        ],
        [
          [GUS, 5400, 3],
          [ANN, 3600, 4],
        ],
        [
          [HAL, 3600, 5],
          [DAN, 0, 6],
        ],
        [[FAY, 0, 7]],
      ]);
      expect(pages.map((p) => p.nextCursor)).toEqual([
        { cursorTotalSeconds: 5400, cursorStaffId: CAT },
        { cursorTotalSeconds: 3600, cursorStaffId: ANN },
        { cursorTotalSeconds: 0, cursorStaffId: DAN },
        null,
      ]);
    });

    it('has a null nextCursor when the last page is exactly full', async () => {
      const data = await board(`?limit=2&cursorTotalSeconds=3600&cursorStaffId=${HAL}`);
      expect(ranking(data)).toEqual([
        [DAN, 0, 6],
        [FAY, 0, 7],
      ]);
      expect(data.nextCursor).toBeNull();
    });

    it('continues after a cursor that names no entry, from its place in the order', async () => {
      const data = await board(`?limit=2&cursorTotalSeconds=4000&cursorStaffId=${orderedId(BLOCK, 99)}`);
      expect(ranking(data)).toEqual([
        [ANN, 3600, 4],
        [HAL, 3600, 5],
      ]);
    });

    it('accepts an upper-case cursor uuid', async () => {
      const data = await board(`?limit=2&cursorTotalSeconds=5400&cursorStaffId=${CAT.toUpperCase()}`);
      expect(ranking(data)[0]).toEqual([GUS, 5400, 3]);
    });

    it('returns an empty last page past the end', async () => {
      const data = await board(`?limit=2&cursorTotalSeconds=0&cursorStaffId=${FAY}`);
      expect(data.entries).toEqual([]);
      expect(data.nextCursor).toBeNull();
    });

    it('defaults to 25 entries and accepts 100', async () => {
      expect((await board()).entries).toHaveLength(7);
      expect((await board('?limit=100')).entries).toHaveLength(7);
      expect((await board('?limit=1')).entries).toHaveLength(1);
    });
  });

  describe('department filter', () => {
    it('lists only that department, with positions counted within it', async () => {
      const data = await board(`?departmentId=${fixture.ids.departments.moderation}`);
      expect(ranking(data)).toEqual([
        [GUS, 5400, 1],
        [ANN, 3600, 2],
        [DAN, 0, 3],
      ]);
    });

    it('pages within the department', async () => {
      const department = fixture.ids.departments.moderation;
      const first = await board(`?departmentId=${department}&limit=2`);
      expect(first.nextCursor).toEqual({ cursorTotalSeconds: 3600, cursorStaffId: ANN });
      const second = await board(`?departmentId=${department}&limit=2&cursorTotalSeconds=3600&cursorStaffId=${ANN}`);
      expect(ranking(second)).toEqual([[DAN, 0, 3]]);
      expect(second.nextCursor).toBeNull();
    });

    it('combines with includeInactive', async () => {
      const department = fixture.ids.departments.support;
      expect(ranking(await board(`?departmentId=${department}`))).toEqual([
        [BEN, 7200, 1],
        [FAY, 0, 2],
      ]);
      expect(ranking(await board(`?departmentId=${department}&includeInactive=1`))).toEqual([
        [EVE, 10800, 1],
        [BEN, 7200, 2],
        [FAY, 0, 3],
      ]);
    });

    it('gives an empty page for a well-formed id of no department of this workspace', async () => {
      for (const department of [orderedId(BLOCK, 500), buildFixture().ids.departments.moderation]) {
        const data = await board(`?departmentId=${department}`);
        expect(data.entries).toEqual([]);
        expect(data.nextCursor).toBeNull();
      }
    });
  });

  describe('request validation (400)', () => {
    it.each([
      ['limit 0', '?limit=0'],
      ['limit 101', '?limit=101'],
      ['a non-numeric limit', '?limit=abc'],
      ['a fractional limit', '?limit=1.5'],
      ['an empty limit', '?limit='],
      ['cursorTotalSeconds alone', '?cursorTotalSeconds=3600'],
      ['cursorStaffId alone', `?cursorStaffId=${ANN}`],
      ['a malformed cursorStaffId', '?cursorTotalSeconds=3600&cursorStaffId=not-a-uuid'],
      ['a non-integer cursorTotalSeconds', `?cursorTotalSeconds=abc&cursorStaffId=${ANN}`],
      ['a negative cursorTotalSeconds', `?cursorTotalSeconds=-1&cursorStaffId=${ANN}`],
      ['a malformed departmentId', '?departmentId=moderation'],
      ['start without end', '?start=2026-03-09T00:00:00Z'],
      ['end without start', '?end=2026-03-09T00:00:00Z'],
      ['a malformed start', '?start=2026-13-01T00:00:00Z&end=2026-03-09T00:00:00Z'],
      ['end before start', '?start=2026-03-10T00:00:00Z&end=2026-03-09T00:00:00Z'],
      ['a range over 366 days', '?start=2025-01-01T00:00:00Z&end=2026-01-03T00:00:00Z'],
    ])('rejects %s', async (_label, query) => {
      const res = await request(query);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    });
  });
});
