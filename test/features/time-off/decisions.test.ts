import { describe, expect, it } from 'vitest';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { dashboardToken, READONLY_USER_ID, REVIEWER_USER_ID, SECOND_REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { ask, dataOf, decide, errorOf, iso, listNotices, newKey, noticeBody, type NoticeData } from './helpers.ts';
import { useNoticeWorld } from './world.ts';

const NOW = DEFAULT_NOW;

interface Page {
  notices: Array<NoticeData['notice'] & { staff: Record<string, unknown>; decidedBy: string | null }>;
  nextCursor: { cursorStartsAt: string; cursorId: string } | null;
}

describe.each(STORE_KINDS)('managers deciding inactivity notices (%s)', (kind) => {
  const world = useNoticeWorld(kind);

  async function asked(chatUserId: string, startInHours: number, hours: number, secret = world.fixture.keys.live.secret) {
    world.ctx.clock.set(NOW);
    return dataOf<NoticeData>(await ask(world.ctx.inject, secret, noticeBody(NOW, startInHours, hours), { chatUserId })).notice;
  }

  it('approve records the decision, its note trimmed, with its command and event; a replay answers the same', async () => {
    const { chatUserId } = await world.freshStaff();
    const notice = await asked(chatUserId, 24, 24);
    world.ctx.clock.set(NOW + 60_000);
    const key = newKey();
    const res = await decide(world.ctx.inject, world.token, 'approve', notice.id, { body: { note: '  Enjoy  ' }, key });
    const data = dataOf<NoticeData>(res);
    expect(data.notice).toEqual({ ...notice, status: 'approved', decidedAt: iso(NOW + 60_000), decisionNote: 'Enjoy' });
    const command = await world.ctx.store.db.selectFrom('commands').selectAll().where('id', '=', data.commandId).executeTakeFirstOrThrow();
    expect(command).toMatchObject({ type: 'staff.inactivity_notice.approve', actor_type: 'user', actor_id: REVIEWER_USER_ID });
    expect(command.payload).not.toContain('Enjoy');
    const event = await world.ctx.store.db.selectFrom('events').selectAll().where('id', '=', data.eventId).executeTakeFirstOrThrow();
    expect(event.type).toBe('staff.inactivity_notice.approved');
    const replay = await decide(world.ctx.inject, world.token, 'approve', notice.id, { body: { note: '  Enjoy  ' }, key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(res.json());
  });

  it('deny without a body records no note; a decided notice is 409 invalid_state_transition', async () => {
    const { chatUserId } = await world.freshStaff();
    const notice = await asked(chatUserId, 24, 24);
    const data = dataOf<NoticeData>(await decide(world.ctx.inject, world.token, 'deny', notice.id));
    expect(data.notice).toMatchObject({ status: 'denied', decisionNote: null, decidedAt: iso(NOW) });
    for (const operation of ['approve', 'deny'] as const) {
      const res = await decide(world.ctx.inject, world.token, operation, notice.id);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toMatchObject({ code: 'invalid_state_transition', details: { status: 'denied' } });
    }
  });

  it('approving over another approved notice of the staff member is 409 notice_overlap', async () => {
    const { chatUserId } = await world.freshStaff();
    const first = await asked(chatUserId, 24, 24);
    // Overlapping pending requests come from different environments' keys; approved ones are per environment.
    const sameEnvironment = await asked(chatUserId, 30, 24, world.fixture.keys.live.secret).catch(() => null);
    expect(sameEnvironment).toBeNull();
    expect((await decide(world.ctx.inject, world.token, 'approve', first.id)).statusCode).toBe(200);
    // A provisioned pending notice overlapping the approved one.
    const workspace = world.fixture.document.workspaces[0]!;
    const pending = { id: crypto.randomUUID(), staffId: first.staffId, startsAt: iso(NOW + 30 * 3_600_000), endsAt: iso(NOW + 60 * 3_600_000), reason: 'x', status: 'pending' as const };
    const { seed } = await import('../../helpers/fixtures.ts');
    await seed(world.ctx, { document: { workspaces: [{ ...workspace, inactivityNotices: [pending] }] } });
    const res = await decide(world.ctx.inject, world.token, 'approve', pending.id);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'notice_overlap', details: { noticeId: first.id } });
    expect((await decide(world.ctx.inject, world.token, 'deny', pending.id)).statusCode).toBe(200);
  });

  it('a member without notices.decide is 403; a non-member, another selected workspace or a non-uuid is 404', async () => {
    const { chatUserId } = await world.freshStaff();
    const notice = await asked(chatUserId, 24, 24);
    const readonly = await dashboardToken(READONLY_USER_ID);
    const refused = await decide(world.ctx.inject, readonly, 'approve', notice.id);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: 'permission_denied', details: { requiredPermission: 'notices.decide' } });
    const stranger = await dashboardToken(SECOND_REVIEWER_USER_ID);
    expect(errorOf(await decide(world.ctx.inject, stranger, 'deny', notice.id)).code).toBe('not_found');
    expect(errorOf(await decide(world.ctx.inject, world.token, 'deny', 'nope')).code).toBe('not_found');
    expect(errorOf(await decide(world.ctx.inject, world.token, 'deny', crypto.randomUUID())).code).toBe('not_found');
    const notMember = await decide(world.ctx.inject, world.token, 'deny', notice.id, { workspaceId: world.fixture.second.ids.workspaceId });
    expect(notMember.statusCode).toBe(403);
    expect(errorOf(notMember).code).toBe('workspace_access_denied');
    // An API key is not a dashboard user.
    const byKey = await decide(world.ctx.inject, world.fixture.keys.live.secret, 'deny', notice.id);
    expect(byKey.statusCode).toBe(401);
    const row = await world.ctx.store.db.selectFrom('inactivity_notices').select('status').where('id', '=', notice.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it.each([
    ['an empty note', { note: '   ' }],
    ['a note over 1000 characters', { note: 'x'.repeat(1001) }],
    ['an unknown property', { reason: 'x' }],
    ['a note that is not a string', { note: 5 }],
    ['a note with a lone surrogate', { note: 'ok \udc00' }],
  ])('%s is 400', async (_name, body) => {
    const { chatUserId } = await world.freshStaff();
    const notice = await asked(chatUserId, 24, 24);
    const res = await decide(world.ctx.inject, world.token, 'approve', notice.id, { body });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('validation_failed');
  });

  it('lists pending notices of the live environment by start then id, with staff and decidedBy, page by page', async () => {
    const a = await world.freshStaff();
    const b = await world.freshStaff();
    const made = [
      await asked(a.chatUserId, 300, 1),
      await asked(b.chatUserId, 300, 1),
      await asked(a.chatUserId, 200, 1),
      await asked(b.chatUserId, 400, 1),
    ];
    await asked(a.chatUserId, 300, 1, world.fixture.keys.test.secret);
    const decided = dataOf<NoticeData>(await decide(world.ctx.inject, world.token, 'approve', made[3]!.id)).notice;
    const expected = [made[2]!, ...[made[0]!, made[1]!].sort((x, y) => (x.id < y.id ? -1 : 1))];
    const ids = new Set(made.map((n) => n.id));
    const seen: Page['notices'] = [];
    let query = '?limit=1';
    for (let i = 0; i < 50; i += 1) {
      const page = dataOf<Page>(await listNotices(world.ctx.inject, world.token, query));
      seen.push(...page.notices);
      if (!page.nextCursor) break;
      query = `?limit=1&cursorStartsAt=${encodeURIComponent(page.nextCursor.cursorStartsAt)}&cursorId=${page.nextCursor.cursorId}`;
    }
    const ours = seen.filter((n) => ids.has(n.id));
    expect(ours.map((n) => n.id)).toEqual(expected.map((n) => n.id));
    expect(ours[0]).toEqual({
      ...made[2],
      staff: { id: a.id, displayName: expect.any(String), gameUserId: expect.any(String), chatUserId: a.chatUserId, departmentId: null },
      decidedBy: null,
    });

    const approved = dataOf<Page>(await listNotices(world.ctx.inject, world.token, `?status=approved,denied&staffId=${b.id}`));
    expect(approved.notices).toEqual([
      expect.objectContaining({ ...decided, decidedBy: REVIEWER_USER_ID }),
    ]);
    const tests = dataOf<Page>(await listNotices(world.ctx.inject, world.token, `?environment=test&staffId=${a.id.toUpperCase()}`));
    expect(tests.notices.map((n) => n.environment)).toEqual(['test']);
    const nobody = dataOf<Page>(await listNotices(world.ctx.inject, world.token, `?staffId=${crypto.randomUUID()}`));
    expect(nobody).toEqual({ notices: [], nextCursor: null });
    const selected = dataOf<Page>(await listNotices(world.ctx.inject, world.token, `?staffId=${a.id}`, world.fixture.ids.workspaceId));
    expect(selected.notices.length).toBeGreaterThan(0);
  });

  it.each([
    '?limit=0',
    '?limit=101',
    '?limit=1.5',
    '?limit=x',
    '?status=approved,unknown',
    '?status=',
    '?environment=staging',
    '?staffId=nope',
    `?cursorId=${'0'.repeat(8)}-0000-4000-8000-000000000000`,
    '?cursorStartsAt=2026-03-11T00:00:00Z',
    `?cursorStartsAt=yesterday&cursorId=${'0'.repeat(8)}-0000-4000-8000-000000000000`,
  ])('the list answers 400 for %s', async (query) => {
    const res = await listNotices(world.ctx.inject, world.token, query);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('validation_failed');
  });

  it('the list needs notices.decide (403) and a dashboard token (401)', async () => {
    const readonly = await dashboardToken(READONLY_USER_ID);
    const res = await listNotices(world.ctx.inject, readonly);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('permission_denied');
    expect((await listNotices(world.ctx.inject, world.fixture.keys.live.secret)).statusCode).toBe(401);
    // The second workspace's only member sees its notices, none of the first's.
    const stranger = await dashboardToken(SECOND_REVIEWER_USER_ID);
    const theirs = dataOf<Page>(await listNotices(world.ctx.inject, stranger, '?status=pending,approved,denied,cancelled'));
    expect(theirs.notices).toEqual([]);
  });
});
