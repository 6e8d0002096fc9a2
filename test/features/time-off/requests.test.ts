import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { buildFixture, seed } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { ask, cancel, DAY, dataOf, errorOf, HOUR, iso, listMine, newKey, noticeBody, type NoticeData } from './helpers.ts';

const NOW = DEFAULT_NOW;

describe.each(STORE_KINDS)('inactivity notices asked for by staff (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture({ secondWorkspace: true, extraKeys: { readOnly: { scopes: ['staff:read'] } } });
  const test = fixture.keys.test.secret;
  const live = fixture.keys.live.secret;
  // Each test uses its own chat user's staff member where overlaps could meet: fresh staff per test.
  let chat = 9000;
  const freshStaff = async (status: 'active' | 'inactive' = 'active'): Promise<{ id: string; chatUserId: string }> => {
    chat += 1;
    const staff = {
      id: crypto.randomUUID(),
      displayName: `S${chat}`,
      gameUserId: String(70000 + chat),
      gameUsername: `s${chat}`,
      chatUserId: String(chat),
      status,
    };
    const workspace = fixture.document.workspaces[0]!;
    await seed(ctx, { document: { workspaces: [{ ...workspace, staff: [...(workspace.staff ?? []), staff] }] } });
    return { id: staff.id, chatUserId: staff.chatUserId };
  };

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('records a pending notice of the key\'s environment, with its command and event, and replays it', async () => {
    ctx.clock.set(NOW);
    const { id: staffId, chatUserId } = await freshStaff();
    const key = newKey();
    const res = await ask(ctx.inject, test, { ...noticeBody(NOW, 24, 72), reason: '  Exams  ' }, { chatUserId, key });
    const data = dataOf<NoticeData>(res);
    expect(data.notice).toEqual({
      id: expect.any(String),
      staffId,
      environment: 'test',
      startsAt: iso(NOW + 24 * HOUR),
      endsAt: iso(NOW + 96 * HOUR),
      reason: 'Exams',
      status: 'pending',
      createdAt: iso(NOW),
      decidedAt: null,
      decisionNote: null,
    });
    expect(res.json().meta.requestId).toBe(res.headers['x-request-id']);
    const command = await ctx.store.db.selectFrom('commands').selectAll().where('id', '=', data.commandId).executeTakeFirstOrThrow();
    expect(command.type).toBe('staff.inactivity_notice.request');
    expect(command.payload).not.toContain('Exams');
    const event = await ctx.store.db.selectFrom('events').selectAll().where('id', '=', data.eventId).executeTakeFirstOrThrow();
    expect(event.type).toBe('staff.inactivity_notice.requested');
    expect(event.command_id).toBe(data.commandId);

    const replay = await ask(ctx.inject, test, { ...noticeBody(NOW, 24, 72), reason: '  Exams  ' }, { chatUserId, key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(res.json());
    const reused = await ask(ctx.inject, test, noticeBody(NOW, 200, 1), { chatUserId, key });
    expect(reused.statusCode).toBe(422);
  });

  it.each([
    ['a reason of only spaces', { reason: '   ' }, ['body.reason']],
    ['a reason over 500 characters after trimming', { reason: ` ${'é'.repeat(501)} ` }, ['body.reason']],
    ['a start more than 7 days ago', { startsAt: iso(NOW - 7 * DAY - 1000) }, ['body.startsAt']],
    ['an end not after the start', { startsAt: iso(NOW + 10 * HOUR), endsAt: iso(NOW + 10 * HOUR) }, ['body.endsAt']],
    ['an end not after now', { startsAt: iso(NOW - 5 * HOUR), endsAt: iso(NOW) }, ['body.endsAt']],
    ['a notice longer than maxNoticeDays', { startsAt: iso(NOW), endsAt: iso(NOW + 30 * DAY + 1000) }, ['body.endsAt']],
    ['every problem at once', { reason: '', startsAt: iso(NOW - 8 * DAY), endsAt: iso(NOW - 9 * DAY) }, ['body.reason', 'body.startsAt', 'body.endsAt']],
    ['a date without an offset', { startsAt: '2026-03-12T00:00:00' }, ['body.startsAt']],
    ['an unknown property', { extra: 1 }, ['body.extra']],
    ['a reason with a lone surrogate', { reason: 'exams \ud800' }, ['body.reason']],
  ])('%s is 400 validation_failed naming the field', async (_name, change, paths) => {
    ctx.clock.set(NOW);
    const res = await ask(ctx.inject, test, { ...noticeBody(NOW, 1, 24), ...change });
    expect(res.statusCode).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('validation_failed');
    const named = (error.details?.issues as Array<{ path: string }>).map((issue) => issue.path);
    expect(new Set(named)).toEqual(new Set(paths));
  });

  it('accepts exactly maxNoticeDays, a start 7 days ago, and 500 characters', async () => {
    ctx.clock.set(NOW);
    const { chatUserId } = await freshStaff();
    const full = await ask(ctx.inject, test, { startsAt: iso(NOW - 7 * DAY), endsAt: iso(NOW + 23 * DAY), reason: 'é'.repeat(500) }, { chatUserId });
    expect(full.statusCode, full.body).toBe(200);
  });

  it('takes maxNoticeDays from the workspace settings', async () => {
    ctx.clock.set(NOW);
    const workspace = fixture.document.workspaces[0]!;
    await seed(ctx, { document: { workspaces: [{ ...workspace, settings: { ...workspace.settings, maxNoticeDays: 2 } }] } });
    try {
      const long = await ask(ctx.inject, test, noticeBody(NOW, 1, 49));
      expect(errorOf(long).code).toBe('validation_failed');
      const { chatUserId } = await freshStaff();
      expect((await ask(ctx.inject, test, noticeBody(NOW, 1, 48), { chatUserId })).statusCode).toBe(200);
    } finally {
      await seed(ctx, fixture);
    }
  });

  it('needs JSON (415), both chat headers (400), the connected guild (403), a staff profile (404), an active one (403)', async () => {
    ctx.clock.set(NOW);
    const body = noticeBody(NOW, 1, 24);
    expect((await ask(ctx.inject, test, body, { contentType: 'text/plain' })).statusCode).toBe(415);
    expect(errorOf(await ask(ctx.inject, test, body, { chatUserId: null })).code).toBe('validation_failed');
    expect(errorOf(await ask(ctx.inject, test, body, { guildId: null })).code).toBe('validation_failed');
    expect(errorOf(await ask(ctx.inject, test, body, { guildId: '123' })).code).toBe('guild_mismatch');
    expect(errorOf(await ask(ctx.inject, test, body, { chatUserId: '404404' })).code).toBe('not_found');
    // Another workspace's staff member is not the key's.
    expect(errorOf(await ask(ctx.inject, test, body, { chatUserId: '6661' })).code).toBe('not_found');
    const inactive = await ask(ctx.inject, test, body, { chatUserId: '5553' });
    expect(inactive.statusCode).toBe(403);
    expect(errorOf(inactive).code).toBe('staff_inactive');
    expect(errorOf(await ask(ctx.inject, test, body, { key: null })).code).toBe('idempotency_key_required');
  });

  it('checks the body before the staff member, and the staff member before staff_inactive and overlap', async () => {
    ctx.clock.set(NOW);
    const bad = { ...noticeBody(NOW, 1, 24), reason: '' };
    expect(errorOf(await ask(ctx.inject, test, bad, { chatUserId: '404404' })).code).toBe('validation_failed');
    expect(errorOf(await ask(ctx.inject, test, bad, { chatUserId: '5553' })).code).toBe('validation_failed');
  });

  it('needs staff:write to ask and to cancel, staff:read to list', async () => {
    const readOnly = fixture.keys.readOnly.secret;
    const refused = await ask(ctx.inject, readOnly, noticeBody(NOW, 1, 24));
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('insufficient_scope');
    expect(errorOf(await cancel(ctx.inject, readOnly, crypto.randomUUID())).code).toBe('insufficient_scope');
    expect((await listMine(ctx.inject, readOnly)).statusCode).toBe(200);
  });

  it('refuses a notice overlapping a pending or approved one of the same environment, naming the earliest', async () => {
    ctx.clock.set(NOW);
    const { chatUserId } = await freshStaff();
    const first = dataOf<NoticeData>(await ask(ctx.inject, test, noticeBody(NOW, 48, 24), { chatUserId }));
    const second = dataOf<NoticeData>(await ask(ctx.inject, test, noticeBody(NOW, 96, 24), { chatUserId }));
    const both = await ask(ctx.inject, test, noticeBody(NOW, 60, 48), { chatUserId });
    expect(both.statusCode).toBe(409);
    expect(errorOf(both)).toMatchObject({ code: 'notice_overlap', details: { noticeId: first.notice.id } });
    const later = await ask(ctx.inject, test, noticeBody(NOW, 100, 2), { chatUserId });
    expect(errorOf(later).details).toEqual({ noticeId: second.notice.id });
    // Touching is not overlapping; the live environment is another world; a cancelled notice blocks nothing.
    expect((await ask(ctx.inject, test, noticeBody(NOW, 72, 24), { chatUserId })).statusCode).toBe(200);
    expect((await ask(ctx.inject, live, noticeBody(NOW, 48, 24), { chatUserId })).statusCode).toBe(200);
    expect((await cancel(ctx.inject, test, first.notice.id, { chatUserId })).statusCode).toBe(200);
    expect((await ask(ctx.inject, test, noticeBody(NOW, 50, 10), { chatUserId })).statusCode).toBe(200);
  });

  it('lists the acting staff member\'s notices of the key\'s environment, latest start first, at most 20', async () => {
    ctx.clock.set(NOW);
    const { chatUserId } = await freshStaff();
    const made: string[] = [];
    for (let i = 0; i < 22; i += 1) {
      made.push(dataOf<NoticeData>(await ask(ctx.inject, test, noticeBody(NOW, i * 3, 2), { chatUserId })).notice.id);
    }
    await ask(ctx.inject, live, noticeBody(NOW, 100, 2), { chatUserId });
    const list = dataOf<{ notices: Array<{ id: string; environment: string }> }>(await listMine(ctx.inject, test, { chatUserId }));
    expect(list.notices.map((n) => n.id)).toEqual(made.slice(2).reverse());
    expect(list.notices.every((n) => n.environment === 'test')).toBe(true);
    const other = dataOf<{ notices: unknown[] }>(await listMine(ctx.inject, test, { chatUserId: '5552' }));
    expect(other.notices.every((n) => (n as { staffId: string }).staffId === fixture.ids.staff.bob)).toBe(true);
  });

  it('breaks ties of startsAt by id descending in the own list', async () => {
    ctx.clock.set(NOW);
    const { id: staffId, chatUserId } = await freshStaff();
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const workspace = fixture.document.workspaces[0]!;
    const notices = ids.map((id) => ({ id, staffId, startsAt: iso(NOW), endsAt: iso(NOW + DAY), reason: 'x', status: 'denied' as const }));
    await seed(ctx, { document: { workspaces: [{ ...workspace, inactivityNotices: notices }] } });
    const list = dataOf<{ notices: Array<{ id: string }> }>(await listMine(ctx.inject, live, { chatUserId }));
    expect(list.notices.map((n) => n.id)).toEqual([...ids].sort().reverse());
  });
});
