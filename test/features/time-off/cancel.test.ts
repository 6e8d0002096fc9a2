import { describe, expect, it } from 'vitest';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { ask, cancel, dataOf, decide, errorOf, HOUR, iso, newKey, noticeBody, type NoticeData } from './helpers.ts';
import { useNoticeWorld } from './world.ts';

const NOW = DEFAULT_NOW;

describe.each(STORE_KINDS)('cancelling an inactivity notice (%s)', (kind) => {
  const world = useNoticeWorld(kind);

  async function asked(chatUserId: string, startInHours: number, hours: number) {
    world.ctx.clock.set(NOW);
    return dataOf<NoticeData>(await ask(world.ctx.inject, world.fixture.keys.test.secret, noticeBody(NOW, startInHours, hours), { chatUserId })).notice;
  }

  async function approved(chatUserId: string, startInHours: number, hours: number) {
    const notice = await asked(chatUserId, startInHours, hours);
    expect((await decide(world.ctx.inject, world.token, 'approve', notice.id)).statusCode).toBe(200);
    return notice;
  }

  it('a pending notice becomes cancelled, with its command and event', async () => {
    const { chatUserId } = await world.freshStaff();
    const notice = await asked(chatUserId, 24, 24);
    const key = newKey();
    const res = await cancel(world.ctx.inject, world.fixture.keys.test.secret, notice.id.toUpperCase(), { chatUserId, key, body: {} });
    const data = dataOf<NoticeData>(res);
    expect(data.notice).toEqual({ ...notice, status: 'cancelled' });
    const event = await world.ctx.store.db.selectFrom('events').selectAll().where('id', '=', data.eventId).executeTakeFirstOrThrow();
    expect(event.type).toBe('staff.inactivity_notice.cancelled');
    const replay = await cancel(world.ctx.inject, world.fixture.keys.test.secret, notice.id, { chatUserId, key, body: {} });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const again = await cancel(world.ctx.inject, world.fixture.keys.test.secret, notice.id, { chatUserId });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toMatchObject({ code: 'notice_finalized', details: { status: 'cancelled' } });
  });

  it('an approved notice that has not started becomes cancelled', async () => {
    const { chatUserId } = await world.freshStaff();
    const notice = await approved(chatUserId, 24, 24);
    const data = dataOf<NoticeData>(await cancel(world.ctx.inject, world.fixture.keys.test.secret, notice.id, { chatUserId }));
    expect(data.notice.status).toBe('cancelled');
    expect(data.notice.endsAt).toBe(notice.endsAt);
    expect(data.notice.decidedAt).toBe(iso(NOW));
  });

  it('an approved notice under way stays approved and ends now: back early', async () => {
    const { chatUserId } = await world.freshStaff();
    const notice = await approved(chatUserId, 1, 48);
    world.ctx.clock.set(NOW + 5 * HOUR);
    const data = dataOf<NoticeData>(await cancel(world.ctx.inject, world.fixture.keys.test.secret, notice.id, { chatUserId }));
    expect(data.notice).toMatchObject({ status: 'approved', startsAt: notice.startsAt, endsAt: iso(NOW + 5 * HOUR) });
    // Ended now: a second cancellation finds it over.
    const again = await cancel(world.ctx.inject, world.fixture.keys.test.secret, notice.id, { chatUserId });
    expect(errorOf(again)).toMatchObject({ code: 'notice_finalized', details: { status: 'approved' } });
  });

  it('an ended approved notice and a denied one are 409 notice_finalized', async () => {
    const { chatUserId } = await world.freshStaff();
    const ended = await approved(chatUserId, 1, 2);
    world.ctx.clock.set(NOW + 3 * HOUR);
    expect(errorOf(await cancel(world.ctx.inject, world.fixture.keys.test.secret, ended.id, { chatUserId })).code).toBe('notice_finalized');
    const denied = await asked(chatUserId, 10, 2);
    expect((await decide(world.ctx.inject, world.token, 'deny', denied.id)).statusCode).toBe(200);
    const res = await cancel(world.ctx.inject, world.fixture.keys.test.secret, denied.id, { chatUserId });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'notice_finalized', details: { status: 'denied' } });
  });

  it('another staff member\'s notice, another environment\'s, an unknown one or a non-uuid is 404', async () => {
    const { chatUserId } = await world.freshStaff();
    const other = await world.freshStaff();
    const notice = await asked(chatUserId, 24, 24);
    const { test, live } = world.fixture.keys;
    expect(errorOf(await cancel(world.ctx.inject, test.secret, notice.id, { chatUserId: other.chatUserId })).code).toBe('not_found');
    expect(errorOf(await cancel(world.ctx.inject, live.secret, notice.id, { chatUserId })).code).toBe('not_found');
    expect(errorOf(await cancel(world.ctx.inject, test.secret, crypto.randomUUID(), { chatUserId })).code).toBe('not_found');
    expect(errorOf(await cancel(world.ctx.inject, test.secret, 'not-a-uuid', { chatUserId })).code).toBe('not_found');
    const otherWorkspace = world.fixture.second.keys.test.secret;
    const res = await cancel(world.ctx.inject, otherWorkspace, notice.id, { chatUserId: '6661', guildId: world.fixture.second.guildId });
    expect(errorOf(res).code).toBe('not_found');
    // The notice is untouched.
    const row = await world.ctx.store.db.selectFrom('inactivity_notices').select('status').where('id', '=', notice.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('a body other than {} is 400', async () => {
    const { chatUserId } = await world.freshStaff();
    const notice = await asked(chatUserId, 24, 24);
    const res = await cancel(world.ctx.inject, world.fixture.keys.test.secret, notice.id, { chatUserId, body: { reason: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('validation_failed');
  });
});
