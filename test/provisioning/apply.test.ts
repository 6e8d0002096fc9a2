import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/shared/actor.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/types.ts';
import { newId, randomBase62, sha256Hex } from '../../src/shared/ids.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import type { ShiftDocument, StaffDocument } from '../../src/provisioning/schema.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { addRecords, application, at, rejection, withProvisionedStore, type BaseFixture } from './documents.ts';
import { dumpDatabase } from './dump.ts';

describe.each(STORE_KINDS)('provisioning (%s)', (kind) => {
  let store: Store;
  let clock: ManualClock;
  let base: BaseFixture;

  const apply = (document: unknown) => applyProvisioning(store.db, document, clock);
  async function row<T extends 'workspaces' | 'staff' | 'api_keys' | 'submissions' | 'shifts' | 'applications'>(
    table: T,
    id: string,
  ): Promise<Database[T]> {
    const result = await sql<Database[T]>`select * from ${sql.table(table)} where id = ${id}`.execute(store.db);
    const found = result.rows[0];
    if (!found) throw new Error(`no ${table} row ${id}`);
    return found;
  }

  withProvisionedStore(kind, (opened, provisioned) => {
    store = opened;
    base = provisioned;
  });
  beforeEach(() => {
    clock = new ManualClock(DEFAULT_NOW);
  });

  it('a full document creates every entity with the documented columns', async () => {
    const fixture = buildFixture({ timezone: 'Europe/Berlin', createStaffProfileOnAccept: true });
    const records = addRecords(fixture);
    await apply(fixture.document);

    const workspace = await row('workspaces', fixture.ids.workspaceId);
    expect(workspace).toMatchObject({
      name: 'Acme workspace',
      slug: fixture.workspace.slug,
      timezone: 'Europe/Berlin',
      create_staff_profile_on_accept: 1,
      weekly_required_minutes: 120,
      chat_guild_id: '900001',
      chat_status: 'connected',
      chat_connected_at: Date.parse('2026-01-01T00:00:00Z'),
      created_at: DEFAULT_NOW,
      updated_at: DEFAULT_NOW,
    });
    expect(JSON.parse(workspace.settings)).toEqual({ createStaffProfileOnAccept: true, weeklyRequiredMinutes: 120 });

    const departments = await store.db
      .selectFrom('departments')
      .select(['id', 'name', 'weekly_required_minutes'])
      .where('workspace_id', '=', fixture.ids.workspaceId)
      .orderBy('name')
      .execute();
    expect(departments).toEqual([
      { id: fixture.ids.departments.moderation, name: 'Moderation', weekly_required_minutes: 180 },
      { id: fixture.ids.departments.support, name: 'Support', weekly_required_minutes: null },
    ]);

    const members = await store.db
      .selectFrom('members')
      .select(['user_id', 'permissions'])
      .where('workspace_id', '=', fixture.ids.workspaceId)
      .orderBy('user_id')
      .execute();
    expect(members.map((m) => [m.user_id, JSON.parse(m.permissions)])).toEqual([
      ['user-readonly', []],
      ['user-reviewer', ['applications.review', 'applications.decide', 'staff.create', 'notices.decide', 'staff.rank']],
    ]);

    expect(await row('staff', fixture.ids.staff.bob)).toEqual({
      id: fixture.ids.staff.bob,
      workspace_id: fixture.ids.workspaceId,
      display_name: 'Bob',
      game_user_id: '1002',
      game_username: 'bob',
      chat_user_id: '5552',
      department_id: fixture.ids.departments.moderation,
      rank: 'Trial Moderator',
      status: 'active',
      weekly_required_minutes: 60,
      created_at: DEFAULT_NOW,
    });
    expect(await row('staff', fixture.ids.staff.carol)).toMatchObject({ status: 'inactive', rank: null });

    const notice = await store.db
      .selectFrom('inactivity_notices')
      .selectAll()
      .where('id', '=', records.notice.id)
      .executeTakeFirstOrThrow();
    expect(notice).toMatchObject({
      workspace_id: fixture.ids.workspaceId,
      staff_id: fixture.ids.staff.bob,
      starts_at: Date.parse('2026-03-09T00:00:00Z'),
      ends_at: Date.parse('2026-03-11T00:00:00Z'),
      reason: 'exams',
      status: 'approved',
    });

    const app = await row('applications', fixture.ids.applicationId);
    expect(app).toMatchObject({ workspace_id: fixture.ids.workspaceId, approved: 1 });
    expect(JSON.parse(app.allowed_universe_ids)).toEqual(['42']);
    expect(JSON.parse(app.features)).toEqual({ activity: true, applications: true });

    expect(await row('submissions', records.submission.id)).toMatchObject({
      workspace_id: fixture.ids.workspaceId,
      status: 'submitted',
      score: null,
      reviewer_notes: null,
      created_at: Date.parse('2026-03-01T10:00:00Z'),
      reviewed_at: null,
      accepted_at: null,
      rejected_at: null,
      staff_profile_id: null,
    });
    const reviewed = await row('submissions', records.reviewed.id);
    expect(reviewed).toMatchObject({ status: 'under_review', score: 55.5, reviewer_notes: 'promising', created_at: DEFAULT_NOW });
    expect(JSON.parse(reviewed.applicant)).toEqual({
      gameUserId: '2002',
      gameUsername: 'eve',
      displayName: 'Eve',
      chatUserId: null,
    });
    expect(JSON.parse(reviewed.answers)).toEqual({});

    const endedAt = Date.parse('2026-03-10T09:30:00.500Z');
    expect(await row('shifts', records.shift.id)).toEqual({
      id: records.shift.id,
      workspace_id: fixture.ids.workspaceId,
      application_id: fixture.ids.applicationId,
      environment: 'live',
      staff_id: fixture.ids.staff.alice,
      universe_id: '42',
      place_id: '7',
      server_id: 'srv-1',
      status: 'completed',
      started_at: Date.parse('2026-03-10T08:00:00Z'),
      last_heartbeat_at: endedAt,
      last_seen_at: endedAt,
      ended_at: endedAt,
      end_reason: 'manual',
      created_at: DEFAULT_NOW,
    });
    expect(await row('shifts', records.testShift.id)).toMatchObject({ environment: 'test', end_reason: 'heartbeat_timeout' });
  });

  it('imported keys are stored as the hash of their secret, and the result lists them without secret', async () => {
    const fixture = buildFixture();
    const result = await apply(fixture.document);
    expect(result.keys).toEqual([
      { id: fixture.keys.test.id, applicationId: fixture.ids.applicationId, environment: 'test', scopes: [...fixture.keys.test.scopes] },
      { id: fixture.keys.live.id, applicationId: fixture.ids.applicationId, environment: 'live', scopes: [...fixture.keys.live.scopes] },
    ]);
    for (const entry of result.keys) expect(entry).not.toHaveProperty('secret');
    expect((await row('api_keys', fixture.keys.test.id)).key_hash).toBe(sha256Hex(fixture.keys.test.secret));
    expect((await row('api_keys', fixture.keys.live.id)).key_hash).toBe(sha256Hex(fixture.keys.live.secret));
  });

  it('generated secrets are wsk_<environment>_ plus 32+ base62 characters, shown once and stored only as SHA-256', async () => {
    const fixture = buildFixture({ extraKeys: { reader: { scopes: ['activity:read'], expiresAt: '2026-06-01T00:00:00Z' } } });
    for (const key of application(fixture).keys) delete key.secret;
    const result = await apply(fixture.document);

    expect(result.keys.map((k) => [k.id, k.environment, k.scopes])).toEqual([
      [fixture.keys.test.id, 'test', [...SCOPES]],
      [fixture.keys.live.id, 'live', [...SCOPES]],
      [fixture.keys.reader.id, 'test', ['activity:read']],
    ]);
    const secrets = result.keys.map((k) => k.secret ?? '');
    expect(new Set(secrets).size).toBe(3);
    const dump = JSON.stringify(await dumpDatabase(store.db));
    for (const entry of result.keys) {
      const secret = entry.secret ?? '';
      expect(secret).toMatch(new RegExp(`^wsk_${entry.environment}_[0-9A-Za-z]{32,}$`));
      const stored = await row('api_keys', entry.id);
      expect(stored).toMatchObject({
        application_id: fixture.ids.applicationId,
        environment: entry.environment,
        key_hash: sha256Hex(secret),
        scopes: JSON.stringify(entry.scopes),
        revoked: 0,
        created_at: DEFAULT_NOW,
      });
      expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice('wsk_test_'.length));
    }
    expect((await row('api_keys', fixture.keys.reader.id)).expires_at).toBe(Date.parse('2026-06-01T00:00:00Z'));
  });

  it('applying the same document twice creates no second key and changes no row', async () => {
    const fixture = buildFixture({ secondWorkspace: true });
    addRecords(fixture);
    application(fixture).keys.push({ id: newId(), environment: 'live', scopes: ['staff:read'] });
    const first = await apply(fixture.document);
    expect(first.keys).toHaveLength(5);
    const before = await dumpDatabase(store.db);

    clock.advance(3_600_000);
    const second = await apply(fixture.document);

    expect(second.keys).toEqual([]);
    expect(await dumpDatabase(store.db)).toEqual(before);
  });

  it('a later document updates configuration but never overwrites submissions or shifts', async () => {
    const fixture = buildFixture();
    const records = addRecords(fixture);
    await apply(fixture.document);
    const originalHash = (await row('api_keys', fixture.keys.test.id)).key_hash;

    const later = DEFAULT_NOW + 86_400_000;
    clock.set(later);
    Object.assign(fixture.workspace, {
      name: 'Acme Renamed',
      timezone: 'America/New_York',
      settings: { createStaffProfileOnAccept: true },
      chat: { guildId: '900009', status: 'disconnected', connectedAt: null },
    });
    at(fixture.workspace.departments, 0).name = 'Mods';
    at(fixture.workspace.members, 1).permissions = ['applications.review'];
    Object.assign(fixture.staff.alice, { rank: 'Head Moderator', status: 'inactive', departmentId: null, chatUserId: null });
    records.notice.status = 'denied';
    Object.assign(application(fixture), { approved: false, allowedUniverseIds: [], features: { activity: false } });
    Object.assign(at(application(fixture).keys, 0), {
      scopes: ['activity:read'],
      revoked: true,
      expiresAt: '2026-04-01T00:00:00Z',
    });
    Object.assign(records.submission, { status: 'rejected', score: 10, reviewerNotes: 'overwritten?' });
    Object.assign(records.shift, { endedAt: '2026-03-10T12:00:00Z', serverId: 'srv-9' });
    const submissionBefore = await row('submissions', records.submission.id);
    const shiftBefore = await row('shifts', records.shift.id);

    const result = await apply(fixture.document);

    expect(result.keys).toEqual([]);
    expect(await row('workspaces', fixture.ids.workspaceId)).toMatchObject({
      name: 'Acme Renamed',
      timezone: 'America/New_York',
      settings: JSON.stringify({ createStaffProfileOnAccept: true }),
      create_staff_profile_on_accept: 1,
      weekly_required_minutes: null,
      chat_guild_id: '900009',
      chat_status: 'disconnected',
      chat_connected_at: null,
      created_at: DEFAULT_NOW,
      updated_at: later,
    });
    const department = await store.db
      .selectFrom('departments')
      .select('name')
      .where('id', '=', fixture.ids.departments.moderation)
      .executeTakeFirstOrThrow();
    expect(department.name).toBe('Mods');
    const readonlyMember = await store.db
      .selectFrom('members')
      .select('permissions')
      .where('workspace_id', '=', fixture.ids.workspaceId)
      .where('user_id', '=', 'user-readonly')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(readonlyMember.permissions)).toEqual(['applications.review']);
    expect(await row('staff', fixture.ids.staff.alice)).toMatchObject({
      rank: 'Head Moderator',
      status: 'inactive',
      department_id: null,
      chat_user_id: null,
      created_at: DEFAULT_NOW,
    });
    const notice = await store.db
      .selectFrom('inactivity_notices')
      .select('status')
      .where('id', '=', records.notice.id)
      .executeTakeFirstOrThrow();
    expect(notice.status).toBe('denied');
    expect(await row('applications', fixture.ids.applicationId)).toMatchObject({
      approved: 0,
      allowed_universe_ids: '[]',
      features: JSON.stringify({ activity: false }),
    });
    expect(await row('api_keys', fixture.keys.test.id)).toMatchObject({
      key_hash: originalHash,
      scopes: JSON.stringify(['activity:read']),
      revoked: 1,
      expires_at: Date.parse('2026-04-01T00:00:00Z'),
      created_at: DEFAULT_NOW,
    });
    expect(await row('submissions', records.submission.id)).toEqual(submissionBefore);
    expect(await row('shifts', records.shift.id)).toEqual(shiftBefore);
  });

  it('entities left out of a later document stay as they are', async () => {
    const fixture = buildFixture();
    addRecords(fixture);
    await apply(fixture.document);
    const before = await dumpDatabase(store.db);

    const { id, name, slug, timezone, settings, chat } = fixture.workspace;
    await apply({ workspaces: [{ id, name, slug, timezone, settings, chat, staff: [fixture.staff.bob] }] });
    await apply({ workspaces: [] });

    expect(await dumpDatabase(store.db)).toEqual(before);
  });

  it('optional workspace fields take their defaults: UTC, empty settings, no chat binding', async () => {
    const id = newId();
    await apply({ workspaces: [{ id, name: 'Bare', slug: `bare-${randomBase62(8).toLowerCase()}` }] });
    expect(await row('workspaces', id)).toMatchObject({
      timezone: 'UTC',
      settings: '{}',
      create_staff_profile_on_accept: 0,
      weekly_required_minutes: null,
      chat_guild_id: null,
      chat_status: null,
      chat_connected_at: null,
    });
  });

  it('uuids are stored in lowercase and matched case-insensitively', async () => {
    const fixture = buildFixture();
    const upper = JSON.parse(JSON.stringify(fixture.document).replace(/[0-9a-f-]{36}/g, (uuid) => uuid.toUpperCase()));
    expect(upper).not.toEqual(fixture.document);
    await apply(upper);
    const before = await dumpDatabase(store.db);
    await apply(fixture.document);
    expect(await dumpDatabase(store.db)).toEqual(before);
    expect((await row('staff', fixture.ids.staff.alice)).department_id).toBe(fixture.ids.departments.moderation);
  });

  it('slugs and game user ids may move between rows within one document', async () => {
    const fixture = buildFixture({ secondWorkspace: true });
    await apply(fixture.document);
    const [aliceGame, bobGame] = [fixture.staff.alice.gameUserId, fixture.staff.bob.gameUserId];
    [fixture.staff.alice.gameUserId, fixture.staff.bob.gameUserId] = [bobGame, aliceGame];
    [fixture.workspace.slug, fixture.second.workspace.slug] = [fixture.second.workspace.slug, fixture.workspace.slug];

    await apply(fixture.document);

    expect((await row('staff', fixture.ids.staff.alice)).game_user_id).toBe(bobGame);
    expect((await row('staff', fixture.ids.staff.bob)).game_user_id).toBe(aliceGame);
    expect((await row('workspaces', fixture.ids.workspaceId)).slug).toBe(fixture.workspace.slug);
    expect((await row('workspaces', fixture.second.ids.workspaceId)).slug).toBe(fixture.second.workspace.slug);
  });

  it('a document may refer to staff, departments and applications already in the database', async () => {
    const shift: ShiftDocument = {
      id: newId(),
      staffId: base.ids.staff.alice,
      applicationId: base.ids.applicationId,
      environment: 'live',
      startedAt: '2026-03-10T08:00:00Z',
      endedAt: '2026-03-10T09:00:00Z',
      endReason: 'player_left',
      universeId: '42',
      placeId: '7',
      serverId: 'srv-1',
    };
    const staff: StaffDocument = {
      id: newId(),
      displayName: 'Dora',
      gameUserId: `9${randomBase62(6).replace(/\D/g, '')}`,
      gameUsername: 'dora',
      departmentId: base.ids.departments.support,
      status: 'active',
    };
    const { id, name, slug } = base.workspace;
    await apply({ workspaces: [{ id, name, slug, staff: [staff], shifts: [shift] }] });
    expect((await row('shifts', shift.id)).workspace_id).toBe(base.ids.workspaceId);
    expect((await row('staff', staff.id)).department_id).toBe(base.ids.departments.support);
  });

  it('an existing key keeps its secret even when the document imports a different one', async () => {
    const fixture = buildFixture();
    await apply(fixture.document);
    at(application(fixture).keys, 0).secret = `wsk_test_${randomBase62(40)}`;
    const error = await rejection(apply(fixture.document));
    expect(error.issues).toEqual([
      {
        path: '$.workspaces[0].applications[0].keys[0].secret',
        message: expect.stringMatching(/differs from the stored secret/),
      },
    ]);
    expect((await row('api_keys', fixture.keys.test.id)).key_hash).toBe(sha256Hex(fixture.keys.test.secret));
  });
});
