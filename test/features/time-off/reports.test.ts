import { describe, expect, it } from 'vitest';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { bearer, GUILD_ID, seed } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { completedShift } from '../activity/reports/helpers.ts';
import { ask, cancel, dataOf, decide, HOUR, iso, noticeBody, type NoticeData } from './helpers.ts';
import { useNoticeWorld } from './world.ts';

// Wednesday 2026-03-11 12:00 UTC; the workspace's week runs from Monday 2026-03-09 00:00 UTC.
const NOW = DEFAULT_NOW;

interface Summary {
  weeklyRequiredMinutes: number;
  progressPercent: number;
  inactivityEffect: null | { noticeId: string; endsAt: string; reason: string; waivedMinutes: number };
}

describe.each(STORE_KINDS)('reports follow decisions on inactivity notices (%s)', (kind) => {
  const world = useNoticeWorld(kind);

  async function summary(secret: string, chatUserId: string): Promise<Summary> {
    const res = await world.ctx.inject({
      method: 'GET',
      url: '/v1/activity/me/summary',
      headers: { ...bearer(secret), 'x-chat-guild-id': GUILD_ID, 'x-acting-chat-user-id': chatUserId },
    });
    return dataOf<Summary>(res);
  }

  async function progressOf(secret: string, staffId: string): Promise<number> {
    const res = await world.ctx.inject({ method: 'GET', url: '/v1/activity/leaderboard?period=week&limit=100', headers: bearer(secret) });
    const entry = dataOf<{ entries: Array<{ staffId: string; progressPercent: number }> }>(res).entries.find((e) => e.staffId === staffId);
    if (!entry) throw new Error('staff member not ranked');
    return entry.progressPercent;
  }

  it('count only approved notices of the reading key\'s environment, and the part taken of one ended early', async () => {
    world.ctx.clock.set(NOW);
    const { test, live } = world.fixture.keys;
    const alice = world.fixture.ids.staff.alice;
    const chatUserId = world.fixture.staff.alice.chatUserId!;
    // 60 minutes worked this week in each environment; Moderation requires 180 a week.
    const workspace = world.fixture.document.workspaces[0]!;
    await seed(world.ctx, {
      document: {
        workspaces: [
          {
            ...workspace,
            shifts: [
              completedShift(world.fixture, alice, '2026-03-09T10:00:00Z', '2026-03-09T11:00:00Z', 'test'),
              completedShift(world.fixture, alice, '2026-03-09T10:00:00Z', '2026-03-09T11:00:00Z', 'live'),
            ],
          },
        ],
      },
    });
    expect((await summary(test.secret, chatUserId)).weeklyRequiredMinutes).toBe(180);
    expect(await progressOf(test.secret, alice)).toBe(33.33);

    const notice = dataOf<NoticeData>(await ask(world.ctx.inject, test.secret, noticeBody(NOW, 1, 24, 'Exams'), { chatUserId })).notice;
    // Pending: nothing changes.
    expect((await summary(test.secret, chatUserId)).inactivityEffect).toBeNull();
    expect(await progressOf(test.secret, alice)).toBe(33.33);

    expect((await decide(world.ctx.inject, world.token, 'approve', notice.id)).statusCode).toBe(200);
    // floor(180 × 24 / 168) = 25 waived: 155 required; 60 / 155 = 38.71 %.
    const approved = await summary(test.secret, chatUserId);
    expect(approved.weeklyRequiredMinutes).toBe(155);
    expect(approved.inactivityEffect).toEqual({ noticeId: notice.id, startsAt: notice.startsAt, endsAt: notice.endsAt, reason: 'Exams', waivedMinutes: 25 });
    expect(await progressOf(test.secret, alice)).toBe(38.71);
    // The live environment never sees a test notice.
    expect((await summary(live.secret, chatUserId)).weeklyRequiredMinutes).toBe(180);
    expect(await progressOf(live.secret, alice)).toBe(33.33);

    // Back early after 6 hours: floor(180 × 6 / 168) = 6 waived; 60 / 174 = 34.48 %.
    world.ctx.clock.set(NOW + 7 * HOUR);
    expect((await cancel(world.ctx.inject, test.secret, notice.id, { chatUserId })).statusCode).toBe(200);
    const early = await summary(test.secret, chatUserId);
    expect(early.weeklyRequiredMinutes).toBe(174);
    expect(early.inactivityEffect).toMatchObject({ endsAt: iso(NOW + 7 * HOUR), waivedMinutes: 6 });
    expect(await progressOf(test.secret, alice)).toBe(34.48);
  });

  it('a decision moves the workspace\'s activity version, so ranking caches keyed on it are not served', async () => {
    world.ctx.clock.set(NOW);
    const { chatUserId } = await world.freshStaff();
    const version = async () =>
      Number(
        (await world.ctx.store.db.selectFrom('workspaces').select('activity_version').where('id', '=', world.fixture.ids.workspaceId).executeTakeFirstOrThrow())
          .activity_version,
      );
    const notice = dataOf<NoticeData>(await ask(world.ctx.inject, world.fixture.keys.test.secret, noticeBody(NOW, 1, 24), { chatUserId })).notice;
    const before = await version();
    expect((await decide(world.ctx.inject, world.token, 'approve', notice.id)).statusCode).toBe(200);
    const approved = await version();
    expect(approved).toBeGreaterThan(before);
    world.ctx.clock.set(NOW + 2 * HOUR);
    expect((await cancel(world.ctx.inject, world.fixture.keys.test.secret, notice.id, { chatUserId })).statusCode).toBe(200);
    expect(await version()).toBeGreaterThan(approved);
  });
});
