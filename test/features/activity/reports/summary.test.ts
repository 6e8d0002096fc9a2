import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { buildFixture, seed, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, noticesIn, chatHeaders, completedShift, insertActiveShift, notice } from './helpers.ts';

const URL = '/v1/activity/me/summary';

// Wednesday 2026-03-11 12:00 UTC = 13:00 in Berlin (CET, UTC+1; summer time starts 2026-03-29).
const NOW = Date.parse('2026-03-11T12:00:00Z');
// Berlin periods around NOW, written out:
//   today          2026-03-10T23:00Z .. 2026-03-11T23:00Z
//   current week   2026-03-08T23:00Z (Mon 9th 00:00) .. 2026-03-15T23:00Z (168 h)
//   previous week  2026-03-01T23:00Z .. 2026-03-08T23:00Z
//   current month  2026-02-28T23:00Z (1st 00:00 CET) .. 2026-03-31T22:00Z (1 April 00:00 CEST)

interface Summary {
  todayMinutes: number;
  currentWeekMinutes: number;
  previousWeekMinutes: number;
  currentMonthMinutes: number;
  weeklyRequiredMinutes: number;
  progressPercent: number;
  activeShift: null | {
    id: string;
    startedAt: string;
    lastHeartbeatAt: string;
    elapsedSeconds: number;
    universeId: string;
    placeId: string;
    serverId: string;
  };
  inactivityEffect: null | { noticeId: string; startsAt: string; endsAt: string; reason: string; waivedMinutes: number };
  timezone: string;
  currentWeekStart: string;
  currentWeekEnd: string;
  currentMonthStart: string;
  currentMonthEnd: string;
}

describe.each(STORE_KINDS)('GET /v1/activity/me/summary (%s)', (kind) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function summaryOf(fixture: Fixture, chatUserId: string | null | undefined, key = fixture.keys.test) {
    const res = await ctx.inject({ method: 'GET', url: URL, headers: chatHeaders(key, chatUserId) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Summary; meta: { requestId: string; correlationId: string } };
  }

  describe('periods in a non-UTC workspace (Europe/Berlin)', () => {
    let fixture: Fixture;
    let mainNoticeId: string;
    let activeId: string;

    beforeAll(async () => {
      ctx.clock.set(NOW);
      fixture = buildFixture({ timezone: 'Europe/Berlin' });
      const alice = fixture.ids.staff.alice;
      const bob = fixture.ids.staff.bob;
      const main = notice(alice, '2026-03-11T23:00:00Z', '2026-03-13T23:00:00Z', 'approved', 'exams'); // 48 h
      mainNoticeId = main.id;
      addHistory(fixture, {
        shifts: [
          // Across local midnight into today: 23:30-00:30 Berlin. Today 30 min, week 60 min.
          completedShift(fixture, alice, '2026-03-10T22:30:00Z', '2026-03-10T23:30:00Z'),
          // Across the week boundary: Sun 23:00 - Mon 01:00 Berlin. Previous week 60, current week 60.
          completedShift(fixture, alice, '2026-03-08T22:00:00Z', '2026-03-09T00:00:00Z'),
          // Across the month boundary: 28 Feb 23:00 - 1 Mar 00:45 Berlin. Month 45 min; in no reported week.
          completedShift(fixture, alice, '2026-02-28T22:00:00Z', '2026-02-28T23:45:00Z'),
          // Today: 70 min 30 s and 30 s. Minutes are floored from the summed seconds (101, not 30 + 70 + 0).
          completedShift(fixture, alice, '2026-03-11T08:00:00Z', '2026-03-11T09:10:30Z'),
          completedShift(fixture, alice, '2026-03-11T10:00:00Z', '2026-03-11T10:00:30Z'),
          // Previous week, 60 min.
          completedShift(fixture, alice, '2026-03-04T10:00:00Z', '2026-03-04T11:00:00Z'),
          // Live-environment work never counts for a test key.
          completedShift(fixture, alice, '2026-03-10T08:00:00Z', '2026-03-10T12:00:00Z', 'live'),
          // Someone else's work.
          completedShift(fixture, bob, '2026-03-10T08:00:00Z', '2026-03-10T12:00:00Z'),
        ],
        notices: [
          main,
          // Pending and denied notices are ignored.
          notice(alice, '2026-03-08T23:00:00Z', '2026-03-15T23:00:00Z', 'pending'),
          notice(alice, '2026-03-08T23:00:00Z', '2026-03-15T23:00:00Z', 'denied'),
          // Another staff member's notice.
          notice(bob, '2026-03-08T23:00:00Z', '2026-03-15T23:00:00Z', 'approved'),
        ],
      });
      await seed(ctx, fixture);
    // Read with the test key: its notices are the test environment's.
    await noticesIn(ctx, fixture, 'test');
      // Read with the test key: its notices are the test environment's.
      await noticesIn(ctx, fixture, 'test');
      // A live active shift: reported, never added to the totals.
      activeId = await insertActiveShift(ctx, fixture, {
        staffId: alice,
        startedAt: '2026-03-11T11:00:00Z',
        lastHeartbeatAt: '2026-03-11T11:59:00Z',
        lastSeenAt: '2026-03-11T11:59:00Z',
      });
    });

    it('clips completed shifts to today, the current and previous week and the month', async () => {
      ctx.clock.set(NOW);
      const { data } = await summaryOf(fixture, fixture.staff.alice.chatUserId);
      expect(data.timezone).toBe('Europe/Berlin');
      expect(data.currentWeekStart).toBe('2026-03-08T23:00:00.000Z');
      expect(data.currentWeekEnd).toBe('2026-03-15T23:00:00.000Z');
      expect(data.currentMonthStart).toBe('2026-02-28T23:00:00.000Z');
      expect(data.currentMonthEnd).toBe('2026-03-31T22:00:00.000Z');
      // today: 1800 + 4230 + 30 = 6060 s
      expect(data.todayMinutes).toBe(101);
      // week: 3600 (across Monday) + 3600 + 4230 + 30 = 11460 s
      expect(data.currentWeekMinutes).toBe(191);
      // previous week: 3600 (before Monday) + 3600
      expect(data.previousWeekMinutes).toBe(120);
      // month: 2700 + 7200 + 3600 + 4230 + 30 + 3600 = 21360 s
      expect(data.currentMonthMinutes).toBe(356);
    });

    it('lowers the department requirement by the approved notice and reports it', async () => {
      ctx.clock.set(NOW);
      const { data } = await summaryOf(fixture, fixture.staff.alice.chatUserId);
      // Moderation requires 180; the notice covers 48 of the week's 168 h: floor(180 × 48 / 168) = 51.
      expect(data.inactivityEffect).toEqual({
        noticeId: mainNoticeId,
        startsAt: '2026-03-11T23:00:00.000Z',
        endsAt: '2026-03-13T23:00:00.000Z',
        reason: 'exams',
        waivedMinutes: 51,
      });
      expect(data.weeklyRequiredMinutes).toBe(129);
      // 191 / 129 × 100 = 148.062…
      expect(data.progressPercent).toBe(148.06);
    });

    it('reports the active shift without counting it', async () => {
      ctx.clock.set(NOW);
      const { data, meta } = await summaryOf(fixture, fixture.staff.alice.chatUserId);
      expect(data.activeShift).toEqual({
        id: activeId,
        startedAt: '2026-03-11T11:00:00.000Z',
        lastHeartbeatAt: '2026-03-11T11:59:00.000Z',
        elapsedSeconds: 3600,
        universeId: '42',
        placeId: '7',
        serverId: 'srv-9',
      });
      expect(data.todayMinutes).toBe(101);
      expect(meta.requestId).toMatch(/^req_/);
    });

    it('sees only live-environment work with a live key', async () => {
      ctx.clock.set(NOW);
      const { data } = await summaryOf(fixture, fixture.staff.alice.chatUserId, fixture.keys.live);
      expect(data.todayMinutes).toBe(0);
      expect(data.currentWeekMinutes).toBe(240);
      expect(data.currentMonthMinutes).toBe(240);
      expect(data.previousWeekMinutes).toBe(0);
      expect(data.activeShift).toBeNull();
    });

    it('ignores notices of other staff and pending or denied ones', async () => {
      ctx.clock.set(NOW);
      // Carol: support (no requirement of its own), so the workspace's 120; her only notices are none.
      const { data } = await summaryOf(fixture, fixture.staff.carol.chatUserId);
      expect(data.inactivityEffect).toBeNull();
      expect(data.weeklyRequiredMinutes).toBe(120);
      expect(data.currentWeekMinutes).toBe(0);
      expect(data.progressPercent).toBe(0);
      expect(data.activeShift).toBeNull();
    });
  });

  describe('several approved notices in one week', () => {
    it('reports the notice overlapping most, with the waiver of all of them counted once', async () => {
      ctx.clock.set(NOW);
      const fixture = buildFixture({ timezone: 'Europe/Berlin' });
      const alice = fixture.ids.staff.alice;
      const longest = notice(alice, '2026-03-11T23:00:00Z', '2026-03-13T23:00:00Z', 'approved', 'exams'); // 48 h
      addHistory(fixture, {
        shifts: [completedShift(fixture, alice, '2026-03-10T08:00:00Z', '2026-03-10T11:11:00Z')], // 191 min
        notices: [
          // 12 of its 24 h fall in the week (until Mon 16th 00:00 Berlin = 15th 23:00Z).
          notice(alice, '2026-03-15T11:00:00Z', '2026-03-16T11:00:00Z', 'approved', 'trip'),
          longest,
          // Inside the longest one: adds nothing to the union.
          notice(alice, '2026-03-12T10:00:00Z', '2026-03-12T12:00:00Z', 'approved', 'dentist'),
        ],
      });
      await seed(ctx, fixture);
    // Read with the test key: its notices are the test environment's.
    await noticesIn(ctx, fixture, 'test');
      // Read with the test key: its notices are the test environment's.
      await noticesIn(ctx, fixture, 'test');
      const { data } = await summaryOf(fixture, fixture.staff.alice.chatUserId);
      // Union 48 h + 12 h = 60 h of 168: floor(180 × 60 / 168) = 64.
      expect(data.inactivityEffect).toEqual({
        noticeId: longest.id,
        startsAt: '2026-03-11T23:00:00.000Z',
        endsAt: '2026-03-13T23:00:00.000Z',
        reason: 'exams',
        waivedMinutes: 64,
      });
      expect(data.weeklyRequiredMinutes).toBe(116);
      // 191 / 116 × 100 = 164.655…
      expect(data.progressPercent).toBe(164.66);
    });
  });

  describe('a week with the change to summer time', () => {
    it('is 167 hours long and waives pro rata to its elapsed length', async () => {
      // Thursday 2026-03-26; Berlin moves from CET to CEST on Sunday 2026-03-29 at 02:00.
      ctx.clock.set(Date.parse('2026-03-26T12:00:00Z'));
      const fixture = buildFixture({ timezone: 'Europe/Berlin' });
      const alice = fixture.ids.staff.alice;
      addHistory(fixture, {
        shifts: [
          // 01:30 CET to 03:30 CEST: 60 minutes of real time.
          completedShift(fixture, alice, '2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z'),
          // Sunday 23:30 CEST to Monday 00:30 CEST: 30 minutes in this week.
          completedShift(fixture, alice, '2026-03-29T21:30:00Z', '2026-03-29T22:30:00Z'),
        ],
        // All of Sunday the 29th in Berlin: a 23-hour day.
        notices: [notice(alice, '2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z')],
      });
      await seed(ctx, fixture);
    // Read with the test key: its notices are the test environment's.
    await noticesIn(ctx, fixture, 'test');
      // Read with the test key: its notices are the test environment's.
      await noticesIn(ctx, fixture, 'test');
      const { data } = await summaryOf(fixture, fixture.staff.alice.chatUserId);
      expect(data.currentWeekStart).toBe('2026-03-22T23:00:00.000Z');
      expect(data.currentWeekEnd).toBe('2026-03-29T22:00:00.000Z');
      expect(data.currentMonthStart).toBe('2026-02-28T23:00:00.000Z');
      expect(data.currentMonthEnd).toBe('2026-03-31T22:00:00.000Z');
      expect(data.currentWeekMinutes).toBe(90);
      // floor(180 × 23 / 167) = floor(24.79) = 24.
      expect(data.inactivityEffect?.waivedMinutes).toBe(24);
      expect(data.weeklyRequiredMinutes).toBe(156);
      // 90 / 156 × 100 = 57.692…
      expect(data.progressPercent).toBe(57.69);
    });
  });

  describe('requirement precedence', () => {
    it('takes the staff override, else the department, else the workspace setting', async () => {
      ctx.clock.set(NOW);
      const fixture = buildFixture();
      await seed(ctx, fixture);
    // Read with the test key: its notices are the test environment's.
    await noticesIn(ctx, fixture, 'test');
      // Read with the test key: its notices are the test environment's.
      await noticesIn(ctx, fixture, 'test');
      // Bob: own 60 over moderation's 180. Alice: moderation 180 over the workspace's 120.
      // Carol (inactive, still answered): support has none, so the workspace's 120.
      const expected: Array<[string | null | undefined, number]> = [
        [fixture.staff.bob.chatUserId, 60],
        [fixture.staff.alice.chatUserId, 180],
        [fixture.staff.carol.chatUserId, 120],
      ];
      for (const [chatUserId, minutes] of expected) {
        const { data } = await summaryOf(fixture, chatUserId);
        expect(data.weeklyRequiredMinutes).toBe(minutes);
        expect(data.progressPercent).toBe(0);
        expect(data.timezone).toBe('UTC');
        expect(data.currentWeekStart).toBe('2026-03-09T00:00:00.000Z');
      }
    });

    it('is 0 with none anywhere, and progress is then 100', async () => {
      ctx.clock.set(NOW);
      const fixture = buildFixture({ weeklyRequiredMinutes: null });
      await seed(ctx, fixture);
    // Read with the test key: its notices are the test environment's.
    await noticesIn(ctx, fixture, 'test');
      // Read with the test key: its notices are the test environment's.
      await noticesIn(ctx, fixture, 'test');
      const { data } = await summaryOf(fixture, fixture.staff.carol.chatUserId);
      expect(data.weeklyRequiredMinutes).toBe(0);
      expect(data.progressPercent).toBe(100);
    });
  });

  describe('timed-out active shifts', () => {
    it('count as completed at their last heartbeat and are not reported as active', async () => {
      ctx.clock.set(NOW);
      const fixture = buildFixture();
      await seed(ctx, fixture);
    // Read with the test key: its notices are the test environment's.
    await noticesIn(ctx, fixture, 'test');
      // Read with the test key: its notices are the test environment's.
      await noticesIn(ctx, fixture, 'test');
      // Nothing received for 10 minutes (the timeout is 300 s): it ended at its last heartbeat, 25 min in.
      await insertActiveShift(ctx, fixture, {
        staffId: fixture.ids.staff.alice,
        startedAt: '2026-03-11T11:25:00Z',
        lastHeartbeatAt: '2026-03-11T11:50:00Z',
        lastSeenAt: '2026-03-11T11:50:00Z',
      });
      const { data } = await summaryOf(fixture, fixture.staff.alice.chatUserId);
      expect(data.activeShift).toBeNull();
      expect(data.todayMinutes).toBe(25);
      expect(data.currentWeekMinutes).toBe(25);
    });
  });

  describe('chat headers and lookups', () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = buildFixture();
      await seed(ctx, fixture);
    // Read with the test key: its notices are the test environment's.
    await noticesIn(ctx, fixture, 'test');
      // Read with the test key: its notices are the test environment's.
      await noticesIn(ctx, fixture, 'test');
    });

    it('requires both chat headers (400)', async () => {
      for (const omitted of ['x-chat-guild-id', 'x-acting-chat-user-id']) {
        const headers: Record<string, string> = chatHeaders(fixture.keys.test, fixture.staff.alice.chatUserId);
        delete headers[omitted];
        const res = await ctx.inject({ method: 'GET', url: URL, headers });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
      }
    });

    it('rejects another guild (403 guild_mismatch)', async () => {
      const res = await ctx.inject({
        method: 'GET',
        url: URL,
        headers: chatHeaders(fixture.keys.test, fixture.staff.alice.chatUserId, '123'),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('guild_mismatch');
    });

    it('rejects a workspace without a connected guild (403 chat_not_connected)', async () => {
      const unbound = buildFixture({ chat: null });
      await seed(ctx, unbound);
      const res = await ctx.inject({
        method: 'GET',
        url: URL,
        headers: chatHeaders(unbound.keys.test, unbound.staff.alice.chatUserId),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('chat_not_connected');
    });

    it('is 404 for a chat user without a staff profile', async () => {
      const res = await ctx.inject({ method: 'GET', url: URL, headers: chatHeaders(fixture.keys.test, '999999') });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    });

    it('echoes X-Correlation-Id in meta', async () => {
      const res = await ctx.inject({
        method: 'GET',
        url: URL,
        headers: { ...chatHeaders(fixture.keys.test, fixture.staff.alice.chatUserId), 'x-correlation-id': 'corr-1' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().meta).toEqual({ requestId: res.headers['x-request-id'], correlationId: 'corr-1' });
    });

    it('requires a credential (401)', async () => {
      const res = await ctx.inject({
        method: 'GET',
        url: URL,
        headers: { 'x-chat-guild-id': fixture.guildId, 'x-acting-chat-user-id': '5551' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthenticated');
    });
  });
});
