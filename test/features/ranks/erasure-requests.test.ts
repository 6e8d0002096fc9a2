import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robloxSignature } from '../../../src/features/roblox/signature.ts';
import { createErasureRequestService } from '../../../src/features/roblox/erasure-requests.ts';
import { eventually, SILENT_LOG } from '../../webhooks/receiver.ts';
import { applyProvisioning } from '../../../src/provisioning/apply.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { OTHER_WORKSPACE, rankDocument, staffMember, WEBHOOK_SECRET, WORKSPACE } from './world.ts';

const URL_OF = (workspaceId: string) => `/v1/roblox/workspaces/${workspaceId}/erasure-requests`;

function notification(userId: string | number, overrides: Record<string, unknown> = {}) {
  return {
    NotificationId: crypto.randomUUID(),
    EventType: 'RightToErasureRequest',
    EventTime: '2026-03-11T11:59:00.000Z',
    EventPayload: { UserId: userId, GameIds: [1234] },
    ...overrides,
  };
}

describe.each(STORE_KINDS)('Roblox erasure requests (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
    const doc = rankDocument({ staff: [staffMember(1), staffMember(2, 'Owner'), staffMember(3, null), staffMember(4)] });
    // The same game user is staff in the other workspace too: only the signed workspace's copy is erased.
    doc.workspaces[1]!.staff = [{ ...staffMember(4), id: '7a1f0c52-3b4d-4e6f-8a9b-0c1d2e3f4b04' }];
    await applyProvisioning(ctx.store.db, doc, ctx.clock);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  function send(body: string, options: { secret?: string; at?: number; workspaceId?: string; header?: string | null } = {}) {
    const t = String(Math.floor((options.at ?? ctx.clock.now()) / 1000));
    const signature = robloxSignature(options.secret ?? WEBHOOK_SECRET, t, Buffer.from(body));
    const header = options.header === undefined ? `t=${t},v1=${signature}` : options.header;
    return ctx.inject({
      method: 'POST',
      url: URL_OF(options.workspaceId ?? WORKSPACE),
      headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'roblox-signature': header }) },
      payload: body,
    });
  }

  const staffRow = (id: string) => ctx.store.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('a signed RightToErasureRequest erases the user in that workspace, as the erase command does, and is recorded', async () => {
    const member = staffMember(4);
    const body = notification(Number(member.gameUserId));
    const res = await send(JSON.stringify(body));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ notificationId: body.NotificationId, outcome: 'erased' });
    const erased = await staffRow(member.id);
    expect(erased).toMatchObject({ game_user_id: `erased-${member.id}`, display_name: `erased-${member.id}`, chat_user_id: null });
    const other = await staffRow('7a1f0c52-3b4d-4e6f-8a9b-0c1d2e3f4b04');
    expect(other.game_user_id).toBe(member.gameUserId);
    const record = await ctx.store.db.selectFrom('roblox_erasure_requests').selectAll().where('notification_id', '=', body.NotificationId).executeTakeFirstOrThrow();
    expect(record).toMatchObject({ workspace_id: WORKSPACE, status: 'erased', event_type: 'RightToErasureRequest', received_at: DEFAULT_NOW });
    expect(JSON.parse(record.counts!)).toMatchObject({ staff: 1 });
    expect(JSON.stringify(record)).not.toContain(member.gameUserId);
    // Roblox's retry: acknowledged, nothing more erased, no second record.
    const again = await send(JSON.stringify(body));
    expect(again.json().data.outcome).toBe('repeated');
    const erasures = await ctx.store.db.selectFrom('erasures').select('id').execute();
    const repeated = await send(JSON.stringify(body));
    expect(repeated.statusCode).toBe(200);
    expect(await ctx.store.db.selectFrom('erasures').select('id').execute()).toHaveLength(erasures.length);
  });

  it('a forged, stale, future, unsigned or wrongly keyed request is 401 and erases nothing', async () => {
    const member = staffMember(1);
    const body = JSON.stringify(notification(member.gameUserId));
    const now = ctx.clock.now();
    const t = String(Math.floor(now / 1000));
    const refusals = [
      await send(body, { secret: 'not-the-secret' }),
      await send(body, { at: now - 11 * 60_000 }),
      await send(body, { at: now + 11 * 60_000 }),
      await send(body, { header: null }),
      await send(body, { header: `t=${t},v1=${Buffer.alloc(32).toString('base64')}` }),
      await send(body, { header: 'garbage' }),
      await send(body, { workspaceId: OTHER_WORKSPACE }),
      await send(body, { workspaceId: 'not-a-uuid' }),
      await send(`${body} `, { header: `t=${t},v1=${robloxSignature(WEBHOOK_SECRET, t, Buffer.from(body))}` }),
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthenticated');
    }
    expect((await staffRow(member.id)).game_user_id).toBe(member.gameUserId);
    // Within the window either way is fine.
    expect((await send(JSON.stringify(notification('999999991')), { at: now - 9 * 60_000 })).statusCode).toBe(200);
  });

  it('other event types are acknowledged and ignored; a signed body that is not a notification is 400', async () => {
    const member = staffMember(1);
    const other = notification(member.gameUserId, { EventType: 'SampleNotification' });
    const res = await send(JSON.stringify(other));
    expect(res.json().data).toEqual({ notificationId: other.NotificationId, outcome: 'ignored' });
    expect((await staffRow(member.id)).game_user_id).toBe(member.gameUserId);
    for (const body of ['not json', '[]', JSON.stringify({ EventType: 'RightToErasureRequest' }), JSON.stringify(notification('12ab'))]) {
      const bad = await send(body);
      expect(bad.statusCode).toBe(400);
      expect(['invalid_json', 'validation_failed']).toContain(bad.json().error.code);
    }
  });

  it('an erasure that outlasts the answer\'s budget is answered erasing and recorded once it commits', async () => {
    const member = staffMember(3, null);
    // A timer whose budget is already spent: the answer never waits for the erasure.
    const spent = { setTimeout: (callback: () => void) => (callback(), {}), clearTimeout: () => undefined };
    const service = createErasureRequestService({ store: ctx.store, clock: ctx.clock, timer: spent, log: SILENT_LOG });
    const body = JSON.stringify(notification(member.gameUserId));
    const t = String(Math.floor(ctx.clock.now() / 1000));
    const answer = await service.handle(WORKSPACE, `t=${t},v1=${robloxSignature(WEBHOOK_SECRET, t, Buffer.from(body))}`, Buffer.from(body));
    expect(answer.outcome).toBe('erasing');
    await eventually(async () => (await staffRow(member.id)).game_user_id === `erased-${member.id}`, 'the background erasure');
    const id = (JSON.parse(body) as { NotificationId: string }).NotificationId;
    await eventually(
      async () => (await ctx.store.db.selectFrom('roblox_erasure_requests').select('status').where('notification_id', '=', id).executeTakeFirst())?.status === 'erased',
      'its record',
    );
  });

  it('an erased staff member\'s pending rank changes end failed (erased)', async () => {
    const member = staffMember(1);
    await ctx.store.write(async (trx) => {
      await trx
        .insertInto('rank_changes')
        .values({
          id: crypto.randomUUID(),
          workspace_id: WORKSPACE,
          staff_id: member.id,
          from_rank: 'Moderator',
          to_rank: 'Trainee',
          from_role_id: '102',
          to_role_id: '101',
          reason: null,
          changed_by: 'x',
          created_at: DEFAULT_NOW,
          sync_status: 'pending',
          attempts: 0,
          last_error: null,
          applied_at: null,
          next_attempt_at: DEFAULT_NOW,
          expires_at: DEFAULT_NOW + 86_400_000,
          claimed_until: null,
          claimed_by: null,
          updated_at: DEFAULT_NOW,
        })
        .execute();
    });
    expect((await send(JSON.stringify(notification(member.gameUserId)))).statusCode).toBe(200);
    const change = await ctx.store.db.selectFrom('rank_changes').selectAll().where('staff_id', '=', member.id).executeTakeFirstOrThrow();
    expect(change.sync_status).toBe('failed');
    expect(JSON.parse(change.last_error!)).toMatchObject({ code: 'erased' });
  });
});
