/**
 * Inactivity notices in the provisioning document: written as the document says (any of the four statuses,
 * `live`, undecided), rewritten by a later document, but never a notice a staff member asked for through the API;
 * the workspace's `maxNoticeDays` setting.
 */
import { describe, expect, it } from 'vitest';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import { findWorkspace } from '../../src/features/workspaces/workspace.ts';
import { createTestContext, DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { notice } from '../features/activity/reports/helpers.ts';
import { ask, dataOf, decide, noticeBody, type NoticeData } from '../features/time-off/helpers.ts';

describe.each(STORE_KINDS)('inactivity notices in the provisioning document (%s)', (kind) => {
  it('writes every status as live and undecided, rewrites its own notices, never an asked one', async () => {
    const ctx = await createTestContext(kind);
    try {
      const fixture = buildFixture();
      const alice = fixture.ids.staff.alice;
      const cancelled = notice(alice, '2026-03-12T00:00:00Z', '2026-03-13T00:00:00Z', 'cancelled', 'trip');
      const pending = notice(alice, '2026-03-20T00:00:00Z', '2026-03-21T00:00:00Z', 'pending', 'exam');
      fixture.workspace.inactivityNotices = [cancelled, pending];
      await seed(ctx, fixture);
      const rows = () => ctx.store.db.selectFrom('inactivity_notices').selectAll().orderBy('starts_at').execute();
      expect(await rows()).toEqual([
        expect.objectContaining({ id: cancelled.id, status: 'cancelled', environment: 'live', origin: 'provisioned' }),
        expect.objectContaining({ id: pending.id, status: 'pending', environment: 'live', decided_at: null, decision_note: null, decided_by: null }),
      ]);
      expect(Number((await rows())[0]!.created_at)).toBe(DEFAULT_NOW);

      // Asked for through the API, then approved.
      const secret = fixture.keys.live.secret;
      const asked = dataOf<NoticeData>(await ask(ctx.inject, secret, noticeBody(DEFAULT_NOW, 300, 24, 'Wedding'), { chatUserId: '5551' })).notice;
      const token = await dashboardToken(REVIEWER_USER_ID);
      expect((await decide(ctx.inject, token, 'approve', asked.id, { body: { note: 'ok' } })).statusCode).toBe(200);
      const askedRow = await ctx.store.db.selectFrom('inactivity_notices').selectAll().where('id', '=', asked.id).executeTakeFirstOrThrow();

      // A later document: its own notice rewritten (created_at kept), the asked one untouched even under its id.
      ctx.clock.set(DEFAULT_NOW + 60_000);
      const rewritten = { ...pending, status: 'approved' as const, reason: 'exams' };
      const claim = { id: asked.id, staffId: alice, startsAt: '2026-04-01T00:00:00Z', endsAt: '2026-04-02T00:00:00Z', reason: 'x', status: 'denied' as const };
      const document = { workspaces: [{ ...fixture.workspace, inactivityNotices: [cancelled, rewritten, claim] }] };
      await applyProvisioning(ctx.store.db, document, ctx.clock);
      const after = await ctx.store.db.selectFrom('inactivity_notices').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
      expect(after).toMatchObject({ status: 'approved', reason: 'exams', created_at: expect.anything() });
      expect(Number(after.created_at)).toBe(DEFAULT_NOW);
      expect(await ctx.store.db.selectFrom('inactivity_notices').selectAll().where('id', '=', asked.id).executeTakeFirstOrThrow()).toEqual(askedRow);
    } finally {
      await ctx.close();
    }
  });

  it('takes maxNoticeDays from the settings, 30 when left out', async () => {
    const ctx = await createTestContext(kind);
    try {
      const fixture = buildFixture();
      await seed(ctx, fixture);
      expect((await findWorkspace(ctx.store.db, fixture.ids.workspaceId))?.settings.maxNoticeDays).toBe(30);
      fixture.workspace.settings = { ...fixture.workspace.settings, maxNoticeDays: 365 };
      await seed(ctx, fixture);
      expect((await findWorkspace(ctx.store.db, fixture.ids.workspaceId))?.settings.maxNoticeDays).toBe(365);
    } finally {
      await ctx.close();
    }
  });
});
