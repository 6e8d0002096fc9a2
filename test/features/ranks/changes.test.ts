import { describe, expect, it } from 'vitest';
import { applyProvisioning, ProvisioningError } from '../../../src/provisioning/apply.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { afterAll, beforeAll } from 'vitest';
import {
  API_KEY,
  changeRank,
  FORM,
  MANAGER,
  newKey,
  OUTSIDER,
  rankChanges,
  rankDocument,
  staffMember,
  VIEWER,
  WEBHOOK_SECRET,
  WORKSPACE,
} from './world.ts';

interface Change {
  id: string;
  staffId: string;
  fromRank: string | null;
  toRank: string;
  reason: string | null;
  changedBy: string;
  createdAt: string;
  sync: { status: string; attempts: number; lastError: unknown; appliedAt: string | null };
}

describe.each(STORE_KINDS)('rank changes (%s)', (kind) => {
  let ctx: TestContext;
  let manager: string;
  let viewer: string;
  let outsider: string;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
    await applyProvisioning(ctx.store.db, rankDocument(), ctx.clock);
    [manager, viewer, outsider] = await Promise.all([dashboardToken(MANAGER), dashboardToken(VIEWER), dashboardToken(OUTSIDER)]);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  const alice = staffMember(1);

  it('a change records the rank, its change, command and event in one answer; a replay answers the same', async () => {
    const key = newKey();
    const res = await changeRank(ctx.inject, manager, alice.id, { rank: 'Senior Moderator', reason: '  Six months  ' }, { key });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { staff: { rank: string }; change: Change; commandId: string; eventId: string };
    expect(data.staff).toMatchObject({ id: alice.id, rank: 'Senior Moderator', gameUserId: alice.gameUserId });
    expect(data.change).toEqual({
      id: expect.any(String),
      staffId: alice.id,
      fromRank: 'Moderator',
      toRank: 'Senior Moderator',
      reason: 'Six months',
      changedBy: MANAGER,
      createdAt: new Date(DEFAULT_NOW).toISOString(),
      sync: { status: 'pending', attempts: 0, lastError: null, appliedAt: null },
    });
    const event = await ctx.store.db.selectFrom('events').selectAll().where('id', '=', data.eventId).executeTakeFirstOrThrow();
    expect(event.type).toBe('staff.rank.changed');
    const command = await ctx.store.db.selectFrom('commands').selectAll().where('id', '=', data.commandId).executeTakeFirstOrThrow();
    expect(command).toMatchObject({ actor_type: 'user', actor_id: MANAGER, type: 'rank_changed' });
    const staff = await ctx.store.db.selectFrom('staff').select('rank').where('id', '=', alice.id).executeTakeFirstOrThrow();
    expect(staff.rank).toBe('Senior Moderator');
    const replay = await changeRank(ctx.inject, manager, alice.id, { rank: 'Senior Moderator', reason: '  Six months  ' }, { key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(res.json());
    const list = (await rankChanges(ctx.inject, viewer, alice.id)).json().data.changes as Change[];
    expect(list[0]).toEqual(data.change);
  });

  it('refusals: unknown rank 400 naming rank, not assignable 403 (wins over unchanged), unchanged 409, no permission 403', async () => {
    const unknown = await changeRank(ctx.inject, manager, alice.id, { rank: 'Admiral' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('validation_failed');
    expect(unknown.json().error.details.issues[0].path).toBe('body.rank');
    const give = await changeRank(ctx.inject, manager, alice.id, { rank: 'Owner' });
    expect(give.statusCode).toBe(403);
    expect(give.json().error).toMatchObject({ code: 'rank_not_assignable', details: { rank: 'Owner' } });
    const owner = staffMember(2, 'Owner');
    const take = await changeRank(ctx.inject, manager, owner.id, { rank: 'Moderator' });
    expect(take.json().error.code).toBe('rank_not_assignable');
    const both = await changeRank(ctx.inject, manager, owner.id, { rank: 'Owner' });
    expect(both.json().error.code).toBe('rank_not_assignable');
    const current = (await ctx.store.db.selectFrom('staff').select('rank').where('id', '=', alice.id).executeTakeFirstOrThrow()).rank!;
    const same = await changeRank(ctx.inject, manager, alice.id, { rank: current });
    expect(same.statusCode).toBe(409);
    expect(same.json().error.code).toBe('rank_unchanged');
    const denied = await changeRank(ctx.inject, viewer, alice.id, { rank: 'Trainee' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('permission_denied');
    const reason = await changeRank(ctx.inject, manager, alice.id, { rank: 'Trainee', reason: '   ' });
    expect(reason.statusCode).toBe(400);
    expect(reason.json().error.details.issues[0].path).toBe('body.reason');
    for (const res of [unknown, give, take, both, same, denied, reason]) expect(res.statusCode).not.toBe(200);
    const changes = await ctx.store.db.selectFrom('rank_changes').select('id').where('staff_id', 'in', [alice.id, owner.id]).execute();
    expect(changes).toHaveLength(1);
  });

  it('another workspace\'s member, an unknown staff member or a non-uuid is 404; reads need membership', async () => {
    expect((await changeRank(ctx.inject, outsider, alice.id, { rank: 'Trainee' })).statusCode).toBe(404);
    expect((await changeRank(ctx.inject, manager, crypto.randomUUID(), { rank: 'Trainee' })).statusCode).toBe(404);
    expect((await changeRank(ctx.inject, manager, 'nope', { rank: 'Trainee' })).statusCode).toBe(404);
    expect((await rankChanges(ctx.inject, outsider, alice.id)).statusCode).toBe(404);
    expect((await rankChanges(ctx.inject, viewer, alice.id)).statusCode).toBe(200);
  });

  it('a change between ranks without roles, or in a workspace without an API key, is not_configured', async () => {
    const helper = staffMember(3, null);
    const res = await changeRank(ctx.inject, manager, helper.id, { rank: 'Helper' });
    expect(res.json().data.change).toMatchObject({ fromRank: null, toRank: 'Helper', sync: { status: 'not_configured' } });
  });

  it('the changes list is newest first, at most 50', async () => {
    const bob = staffMember(4, 'Trainee');
    await applyProvisioning(ctx.store.db, { workspaces: [{ ...rankDocument().workspaces[0]!, staff: [bob] }] }, ctx.clock);
    const ranks = ['Moderator', 'Trainee'];
    for (let i = 0; i < 52; i += 1) {
      ctx.clock.advance(1000);
      expect((await changeRank(ctx.inject, manager, bob.id, { rank: ranks[i % 2] })).statusCode).toBe(200);
    }
    const list = (await rankChanges(ctx.inject, viewer, bob.id)).json().data.changes as Change[];
    expect(list).toHaveLength(50);
    expect(list[0]!.toRank).toBe('Trainee');
    expect(Date.parse(list[0]!.createdAt)).toBeGreaterThan(Date.parse(list[1]!.createdAt));
  });

  it("a staff member's page lists the last 10 rank changes, newest first, as the changes list gives them", async () => {
    const carol = staffMember(5, 'Trainee');
    await applyProvisioning(ctx.store.db, { workspaces: [{ ...rankDocument().workspaces[0]!, staff: [carol] }] }, ctx.clock);
    const page = async () =>
      (await ctx.inject({ method: 'GET', url: `/v1/staff/${carol.id}`, headers: { authorization: `Bearer ${viewer}` } })).json()
        .data as { rankChanges: Change[] };
    expect((await page()).rankChanges).toEqual([]);
    const ranks = ['Moderator', 'Trainee'];
    for (let i = 0; i < 12; i += 1) {
      ctx.clock.advance(1000);
      expect((await changeRank(ctx.inject, manager, carol.id, { rank: ranks[i % 2] })).statusCode).toBe(200);
    }
    const list = (await rankChanges(ctx.inject, viewer, carol.id)).json().data.changes as Change[];
    expect((await page()).rankChanges).toEqual(list.slice(0, 10));
  });

  it('an acceptance that creates a staff profile gives the form\'s entry rank, recorded from null by the decider', async () => {
    const submission = crypto.randomUUID();
    const doc = rankDocument();
    const workspace = doc.workspaces[0]!;
    await applyProvisioning(
      ctx.store.db,
      {
        workspaces: [
          {
            ...workspace,
            submissions: [
              {
                id: submission,
                status: 'submitted',
                formId: FORM,
                applicant: { gameUserId: '6000001', gameUsername: 'newbie', displayName: 'Newbie' },
                answers: { why: 'fun' },
              },
            ],
          },
        ],
      },
      ctx.clock,
    );
    const res = await ctx.inject({
      method: 'POST',
      url: `/v1/applications/submissions/${submission}/accept`,
      headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json', 'idempotency-key': newKey() },
      payload: JSON.stringify({ createStaffProfile: true }),
    });
    expect(res.statusCode).toBe(200);
    const staffId = res.json().data.staffProfileId as string;
    const staff = await ctx.store.db.selectFrom('staff').select('rank').where('id', '=', staffId).executeTakeFirstOrThrow();
    expect(staff.rank).toBe('Trainee');
    const [change] = (await rankChanges(ctx.inject, viewer, staffId)).json().data.changes as Change[];
    expect(change).toMatchObject({ fromRank: null, toRank: 'Trainee', changedBy: MANAGER, sync: { status: 'pending' } });
    const events = await ctx.store.db.selectFrom('events').select('type').where('type', '=', 'staff.rank.changed').execute();
    expect(events.length).toBeGreaterThan(0);
  });

  it('provisioning refuses a staff rank or an entry rank that is not a rank, and writes nothing', async () => {
    const doc = rankDocument();
    const workspace = doc.workspaces[0]!;
    const refused = async (patch: object, path: string) => {
      const error = await applyProvisioning(ctx.store.db, { workspaces: [{ ...workspace, ...patch }] }, ctx.clock).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProvisioningError);
      expect((error as ProvisioningError).issues.map((issue) => issue.path)).toContain(path);
      expect(JSON.stringify((error as ProvisioningError).issues)).not.toContain(API_KEY);
    };
    await refused({ staff: [{ ...staffMember(9), rank: 'Admiral' }] }, '$.workspaces[0].staff[0].rank');
    await refused({ forms: [{ ...workspace.forms![0]!, entryRank: 'Owner' }] }, '$.workspaces[0].forms[0].entryRank');
    await refused({ forms: [{ ...workspace.forms![0]!, entryRank: 'Nobody' }] }, '$.workspaces[0].forms[0].entryRank');
    await refused({ ranks: [{ name: 'A', order: 1 }, { name: 'A', order: 2 }] }, '$.workspaces[0].ranks[1].name');
    await refused({ ranks: [{ name: 'A', order: 1 }, { name: 'B', order: 1 }] }, '$.workspaces[0].ranks[1].order');
    await refused({ roblox: { groupId: 'abc' } }, '$.workspaces[0].roblox.groupId');
    // Without ranks any name is a rank, of 1 to 60 characters.
    await refused({ ranks: [], staff: [{ ...staffMember(9), rank: 'x'.repeat(61) }] }, '$.workspaces[0].staff[0].rank');
    const sixty = { ...staffMember(10), rank: 'x'.repeat(60) };
    await applyProvisioning(ctx.store.db, { workspaces: [{ ...workspace, ranks: [], forms: [], staff: [sixty] }] }, ctx.clock);
    const stored = await ctx.store.db.selectFrom('staff').select('rank').where('id', '=', sixty.id).executeTakeFirstOrThrow();
    expect(stored.rank).toBe(sixty.rank);
    await applyProvisioning(ctx.store.db, doc, ctx.clock);
    expect(await ctx.store.db.selectFrom('staff').select('id').where('id', '=', staffMember(9).id).executeTakeFirst()).toBeUndefined();
  });

  it('a document without the secrets keeps the stored ones; the provisioning result never carries them', async () => {
    const workspace = rankDocument().workspaces[0]!;
    const result = await applyProvisioning(ctx.store.db, { workspaces: [{ ...workspace, roblox: { groupId: '777' } }] }, ctx.clock);
    expect(JSON.stringify(result)).not.toContain(API_KEY);
    const row = await ctx.store.db.selectFrom('roblox_settings').selectAll().where('workspace_id', '=', WORKSPACE).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ group_id: '777', api_key: API_KEY, webhook_secret: WEBHOOK_SECRET });
    await applyProvisioning(ctx.store.db, rankDocument(), ctx.clock);
  });
});
