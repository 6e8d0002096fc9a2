import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RankSync, type RankSyncSettings } from '../../../src/features/ranks/sync/sync.ts';
import { systemTimer } from '../../../src/webhooks/timer.ts';
import { applyProvisioning } from '../../../src/provisioning/apply.ts';
import { eraseGameUser } from '../../../src/features/erasure/service.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { SILENT_LOG } from '../../webhooks/receiver.ts';
import { FakeOpenCloud } from './fake-open-cloud.ts';
import { API_KEY, changeRank, GROUP_ID, MANAGER, rankChanges, rankDocument, staffMember } from './world.ts';

interface Change {
  id: string;
  toRank: string;
  sync: { status: string; attempts: number; lastError: { status: number | null; code: string; message: string } | null; appliedAt: string | null };
}

const SETTINGS: Omit<RankSyncSettings, 'baseUrl'> = {
  // Long enough for a loaded machine; the timeout's own test sets a short one.
  timeoutMs: 5_000,
  leaseMs: 60_000,
  pollIntervalMs: 1_000,
  retry: { firstDelayMs: 1_000, maxDelayMs: 60_000 },
  batch: 20,
  callLimit: { max: 300, windowMs: 60_000 },
};

describe.each(STORE_KINDS)('the rank sync against Open Cloud (%s)', (kind) => {
  let ctx: TestContext;
  let fake: FakeOpenCloud;
  let token: string;
  const alice = staffMember(1);
  const syncs: RankSync[] = [];

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    fake = await FakeOpenCloud.start();
    const doc = rankDocument();
    doc.workspaces[0]!.webhooks = [{ id: crypto.randomUUID(), url: 'https://hooks.example.com/ranks', events: ['staff.rank.sync_failed'] }];
    await applyProvisioning(ctx.store.db, doc, ctx.clock);
    token = await dashboardToken(MANAGER, { expiresAt: DEFAULT_NOW + 72 * 3_600_000 });
  });
  afterEach(async () => {
    for (const sync of syncs.splice(0)) await sync.stop();
    await fake.close();
    await ctx.close();
  });

  function sync(settings: Partial<RankSyncSettings> = {}, store = ctx.store): RankSync {
    const created = new RankSync({
      store,
      clock: ctx.clock,
      timer: systemTimer,
      log: SILENT_LOG,
      settings: { ...SETTINGS, baseUrl: fake.baseUrl, ...settings },
      random: () => 1,
    });
    syncs.push(created);
    return created;
  }

  async function change(rank: string, staffId = alice.id): Promise<Change> {
    const res = await changeRank(ctx.inject, token, staffId, { rank });
    expect(res.statusCode).toBe(200);
    return res.json().data.change as Change;
  }

  async function current(staffId = alice.id): Promise<Change[]> {
    return (await rankChanges(ctx.inject, token, staffId)).json().data.changes as Change[];
  }

  it('assigns the new role, then unassigns the old one, with the API key; then applied', async () => {
    await change('Senior Moderator');
    expect(await sync().runOnce()).toBe(1);
    expect(fake.summary()).toEqual([`assign ${alice.gameUserId} 103`, `unassign ${alice.gameUserId} 102`]);
    expect(fake.calls.every((call) => call.apiKey === API_KEY && call.method === 'POST')).toBe(true);
    expect(fake.calls[0]!.path).toBe(`/cloud/v2/groups/${GROUP_ID}/memberships/${alice.gameUserId}:assignRole`);
    expect(fake.calls[0]!.body).toEqual({ role: `groups/${GROUP_ID}/roles/103` });
    const [applied] = await current();
    expect(applied!.sync).toEqual({ status: 'applied', attempts: 1, lastError: null, appliedAt: new Date(DEFAULT_NOW).toISOString() });
    expect(await sync().runOnce()).toBe(0);
  });

  it('a 429 waits at least its retry-after, a 5xx and a 409 ABORTED are retried with growing delays', async () => {
    await change('Senior Moderator');
    const answers = [
      { status: 429, code: 'RESOURCE_EXHAUSTED', message: 'Too many requests', retryAfter: 120 },
      { status: 503, code: 'UNAVAILABLE', message: 'down' },
      { status: 409, code: 'ABORTED', message: 'conflict' },
    ];
    fake.answer = (_call, index) => answers[index] ?? { status: 200 };
    const worker = sync();
    await worker.runOnce();
    let [pending] = await current();
    expect(pending!.sync).toMatchObject({ status: 'pending', attempts: 1, lastError: { status: 429, code: 'RESOURCE_EXHAUSTED', message: 'Too many requests' } });
    // The first retry delay is 1 s; the 429 asked for 120.
    ctx.clock.advance(119_000);
    expect(await worker.runOnce()).toBe(0);
    ctx.clock.advance(1_000);
    expect(await worker.runOnce()).toBe(1);
    [pending] = await current();
    expect(pending!.sync).toMatchObject({ status: 'pending', attempts: 2, lastError: { status: 503, code: 'UNAVAILABLE' } });
    // The second failure waits 2 s (doubling).
    ctx.clock.advance(1_999);
    expect(await worker.runOnce()).toBe(0);
    ctx.clock.advance(1);
    await worker.runOnce();
    [pending] = await current();
    expect(pending!.sync).toMatchObject({ status: 'pending', attempts: 3, lastError: { status: 409, code: 'ABORTED' } });
    ctx.clock.advance(4_000);
    await worker.runOnce();
    const [applied] = await current();
    expect(applied!.sync).toMatchObject({ status: 'applied', attempts: 4, lastError: null });
  });

  it('a 403 is final: failed with Roblox\'s code and message, and staff.rank.sync_failed is sent', async () => {
    await change('Senior Moderator');
    fake.answer = () => ({ status: 403, code: 'PERMISSION_DENIED', message: 'The key lacks group:write.' });
    await sync().runOnce();
    const [failed] = await current();
    expect(failed!.sync).toEqual({
      status: 'failed',
      attempts: 1,
      lastError: { status: 403, code: 'PERMISSION_DENIED', message: 'The key lacks group:write.' },
      appliedAt: null,
    });
    ctx.clock.advance(3_600_000);
    expect(await sync().runOnce()).toBe(0);
    expect(fake.calls).toHaveLength(1);
    const events = await ctx.store.db.selectFrom('webhook_events').selectAll().where('type', '=', 'staff.rank.sync_failed').execute();
    expect(events).toHaveLength(1);
    const body = JSON.parse(events[0]!.body) as { environment: string; data: { staff: { id: string }; change: Change } };
    expect(body.environment).toBe('live');
    expect(body.data.staff.id).toBe(alice.id);
    expect(body.data.change.sync.lastError?.code).toBe('PERMISSION_DENIED');
    expect(events[0]!.body).not.toContain(API_KEY);
  });

  it('a 404 on assigning is final; a 404 on unassigning means the member did not hold the role', async () => {
    await change('Senior Moderator');
    fake.answer = (call) => (call.path.endsWith(':unassignRole') ? { status: 404, code: 'NOT_FOUND', message: 'no' } : { status: 200 });
    await sync().runOnce();
    expect((await current())[0]!.sync.status).toBe('applied');
    const bob = staffMember(3, null);
    await change('Trainee', bob.id);
    fake.answer = () => ({ status: 404, code: 'NOT_FOUND', message: 'The user is not a member of the group.' });
    await sync().runOnce();
    expect((await current(bob.id))[0]!.sync).toMatchObject({ status: 'failed', lastError: { status: 404, code: 'NOT_FOUND' } });
  });

  it('a slow answer is a timeout, retried; the retries stop 24 h after the change', async () => {
    await change('Senior Moderator');
    fake.answer = () => ({ status: 200, delayMs: 1_500 });
    const worker = sync({ timeoutMs: 400 });
    await worker.runOnce();
    expect((await current())[0]!.sync).toMatchObject({ status: 'pending', attempts: 1, lastError: { status: null, code: 'timeout' } });
    fake.answer = () => ({ status: 500, code: 'INTERNAL', message: 'boom' });
    ctx.clock.advance(24 * 3_600_000);
    await worker.runOnce();
    expect((await current())[0]!.sync).toMatchObject({ status: 'failed', attempts: 2, lastError: { status: 500, code: 'INTERNAL' } });
  });

  it('a staff member\'s changes reach the group in order: one still retrying holds the later ones', async () => {
    await change('Senior Moderator');
    ctx.clock.advance(1);
    await change('Trainee');
    const bob = staffMember(3, null);
    await change('Moderator', bob.id);
    let aliceCalls = 0;
    fake.answer = (call) => {
      if (!call.path.includes(alice.gameUserId)) return { status: 200 };
      aliceCalls += 1;
      return aliceCalls === 1 ? { status: 500, code: 'INTERNAL', message: 'x' } : { status: 200 };
    };
    const worker = sync();
    // Alice's first change fails and holds her second; Bob's goes ahead.
    expect(await worker.runOnce()).toBe(2);
    expect(await worker.runOnce()).toBe(0);
    expect(fake.summary().filter((line) => line.includes(alice.gameUserId))).toEqual([`assign ${alice.gameUserId} 103`]);
    ctx.clock.advance(1_000);
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(1);
    expect(fake.summary().filter((line) => line.includes(alice.gameUserId))).toEqual([
      `assign ${alice.gameUserId} 103`,
      `assign ${alice.gameUserId} 103`,
      `unassign ${alice.gameUserId} 102`,
      `assign ${alice.gameUserId} 101`,
      `unassign ${alice.gameUserId} 103`,
    ]);
    expect((await current()).map((c) => c.sync.status)).toEqual(['applied', 'applied']);
  });

  it('at most the configured calls a minute per API key: a change over it waits, untried', async () => {
    const staff = [1, 3, 4, 5].map((n) => staffMember(n, n === 1 ? 'Moderator' : null));
    await applyProvisioning(ctx.store.db, { workspaces: [{ ...rankDocument().workspaces[0]!, staff }] }, ctx.clock);
    for (const member of staff.slice(1)) await change('Trainee', member.id);
    const worker = sync({ callLimit: { max: 2, windowMs: 60_000 } });
    // Two changes fit the window and are claimed; the third is left unclaimed, due when the window has room.
    expect(await worker.runOnce()).toBe(2);
    expect(fake.calls).toHaveLength(2);
    const statuses = await Promise.all(staff.slice(1).map(async (member) => (await current(member.id))[0]!.sync));
    expect(statuses.filter((s) => s.status === 'applied')).toHaveLength(2);
    expect(statuses.filter((s) => s.status === 'pending')).toEqual([{ status: 'pending', attempts: 0, lastError: null, appliedAt: null }]);
    ctx.clock.advance(59_000);
    expect(await worker.runOnce()).toBe(0);
    ctx.clock.advance(1_000);
    expect(await worker.runOnce()).toBe(1);
    expect(fake.calls).toHaveLength(3);
  });

  it('an instance that dies mid-call leaves the change to another once the lease lapses; the late answer is ignored', async () => {
    await change('Senior Moderator');
    fake.answer = () => 'hang';
    const dying = sync({ timeoutMs: 60_000, leaseMs: 5_000 });
    const abandoned = dying.runOnce();
    await expect.poll(() => fake.calls.length).toBe(1);
    fake.answer = () => ({ status: 200 });
    const other = sync({ leaseMs: 5_000 });
    expect(await other.runOnce()).toBe(0);
    ctx.clock.advance(5_000);
    expect(await other.runOnce()).toBe(1);
    expect((await current())[0]!.sync).toMatchObject({ status: 'applied', attempts: 1 });
    await fake.close();
    await abandoned;
    expect((await current())[0]!.sync).toMatchObject({ status: 'applied', attempts: 1 });
    fake = await FakeOpenCloud.start();
  });

  it('an erased staff member\'s pending changes end failed with code erased, and are never sent', async () => {
    await change('Senior Moderator');
    await eraseGameUser(ctx.store, ctx.clock, alice.gameUserId);
    expect(await sync().runOnce()).toBe(0);
    expect(fake.calls).toHaveLength(0);
    expect((await current())[0]!.sync).toMatchObject({ status: 'failed', lastError: { code: 'erased' } });
  });

  it('/metrics counts pending and failed changes', async () => {
    await change('Senior Moderator');
    const metrics = async () => (await ctx.inject({ method: 'GET', url: '/metrics' })).body;
    expect(await metrics()).toMatch(/workspace_gateway_pending_rank_changes 1\b/);
    fake.answer = () => ({ status: 403, code: 'PERMISSION_DENIED', message: 'no' });
    await sync().runOnce();
    const text = await metrics();
    expect(text).toMatch(/workspace_gateway_pending_rank_changes 0\b/);
    expect(text).toMatch(/workspace_gateway_failed_rank_changes 1\b/);
  });
});
