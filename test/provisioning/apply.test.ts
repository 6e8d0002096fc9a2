import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/actor.ts';
import { ManualClock } from '../../src/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/types.ts';
import { newId, randomBase62, sha256Hex } from '../../src/ids.ts';
import { applyProvisioning, ProvisioningError } from '../../src/provisioning/apply.ts';
import type {
  NoticeDocument,
  ProvisioningDocument,
  ShiftDocument,
  StaffDocument,
  SubmissionDocument,
  WorkspaceDocument,
} from '../../src/provisioning/schema.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture, type Fixture, type WorkspaceFixture } from '../helpers/fixtures.ts';
import { STORE_KINDS, withTestStore } from '../helpers/stores.ts';
import { dumpDatabase } from './dump.ts';

type BaseFixture = Fixture & { readonly second: WorkspaceFixture };

/** The i-th element of an optional list (fails the test when it is missing). */
function at<T>(list: readonly T[] | undefined, index: number): T {
  const item = list?.[index];
  if (item === undefined) throw new Error(`no element ${index}`);
  return item;
}

function application(fixture: { readonly workspace: WorkspaceDocument }) {
  return at(fixture.workspace.applications, 0);
}

/** Adds a notice, two submissions and two history shifts to the fixture's workspace. */
function addRecords(fixture: Fixture) {
  const notice: NoticeDocument = {
    id: newId(),
    staffId: fixture.ids.staff.bob,
    startsAt: '2026-03-09T00:00:00Z',
    endsAt: '2026-03-11T00:00:00Z',
    reason: 'exams',
    status: 'approved',
  };
  const submission: SubmissionDocument = {
    id: newId(),
    status: 'submitted',
    score: null,
    reviewerNotes: null,
    applicant: { gameUserId: '2001', gameUsername: 'bob2001', displayName: 'Bobby', chatUserId: '7771' },
    answers: { why: 'to help' },
    createdAt: '2026-03-01T10:00:00Z',
  };
  const reviewed: SubmissionDocument = {
    id: newId(),
    status: 'under_review',
    score: 55.5,
    reviewerNotes: 'promising',
    applicant: { gameUserId: '2002', gameUsername: 'eve', displayName: 'Eve' },
  };
  const shift: ShiftDocument = {
    id: newId(),
    staffId: fixture.ids.staff.alice,
    applicationId: fixture.ids.applicationId,
    environment: 'live',
    startedAt: '2026-03-10T08:00:00Z',
    endedAt: '2026-03-10T09:30:00.500Z',
    endReason: 'manual',
    universeId: '42',
    placeId: '7',
    serverId: 'srv-1',
  };
  const testShift: ShiftDocument = {
    ...shift,
    id: newId(),
    staffId: fixture.ids.staff.bob,
    environment: 'test',
    endedAt: shift.startedAt,
    endReason: 'heartbeat_timeout',
  };
  fixture.workspace.inactivityNotices = [notice];
  fixture.workspace.submissions = [submission, reviewed];
  fixture.workspace.shifts = [shift, testShift];
  return { notice, submission, reviewed, shift, testShift };
}

async function rejection(promise: Promise<unknown>): Promise<ProvisioningError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProvisioningError) return error;
    throw error;
  }
  throw new Error('expected a ProvisioningError');
}

interface InvalidCase {
  readonly name: string;
  readonly path: string;
  readonly message: RegExp;
  /** Returns the document to apply, from a fresh fixture and the seeded base fixture. */
  readonly build: (fixture: Fixture, base: BaseFixture) => unknown;
}

const INVALID_CASES: InvalidCase[] = [
  { name: 'the document is not an object', path: '$', message: /must be object/, build: () => [] },
  { name: 'workspaces is missing', path: '$.workspaces', message: /is required/, build: () => ({}) },
  {
    name: 'a misspelt property',
    path: '$.workspaces[0].nmae',
    message: /not a known property/,
    build: (f) => (Object.assign(f.workspace, { nmae: 'Acme' }), f.document),
  },
  {
    name: 'a department id that is not a uuid',
    path: '$.workspaces[0].departments[0].id',
    message: /must be a UUID/,
    build: (f) => ((at(f.workspace.departments, 0).id = 'not-a-uuid'), f.document),
  },
  {
    name: 'a staff member without displayName',
    path: '$.workspaces[0].staff[0].displayName',
    message: /is required/,
    build: (f) => (delete (f.staff.alice as Partial<StaffDocument>).displayName, f.document),
  },
  {
    name: 'an unknown time zone',
    path: '$.workspaces[0].timezone',
    message: /IANA time zone/,
    build: (f) => ((f.workspace.timezone = 'Mars/Olympus_Mons'), f.document),
  },
  {
    name: 'an unknown staff status',
    path: '$.workspaces[0].staff[0].status',
    message: /must be one of: active, inactive/,
    build: (f) => (Object.assign(f.staff.alice, { status: 'retired' }), f.document),
  },
  {
    name: 'an unknown scope',
    path: '$.workspaces[0].applications[0].keys[0].scopes[0]',
    message: /must be one of: activity:write, activity:read, staff:read/,
    build: (f) => (Object.assign(at(application(f).keys, 0), { scopes: ['activity:delete'] }), f.document),
  },
  {
    name: 'an unknown permission',
    path: '$.workspaces[0].members[0].permissions[0]',
    message: /must be one of/,
    build: (f) => (Object.assign(at(f.workspace.members, 0), { permissions: ['staff.delete'] }), f.document),
  },
  {
    name: 'an unknown feature',
    path: '$.workspaces[0].applications[0].features.chat',
    message: /not a known property \(known properties: activity, applications\)/,
    build: (f) => (Object.assign(application(f).features, { chat: true }), f.document),
  },
  {
    name: 'a score above 100',
    path: '$.workspaces[0].submissions[0].score',
    message: /<= 100/,
    build: (f) => ((addRecords(f).submission.score = 101), f.document),
  },
  {
    name: 'reviewer notes over 5000 characters',
    path: '$.workspaces[0].submissions[0].reviewerNotes',
    message: /more than 5000/,
    build: (f) => ((addRecords(f).submission.reviewerNotes = 'x'.repeat(5001)), f.document),
  },
  {
    name: 'an unknown submission status',
    path: '$.workspaces[0].submissions[0].status',
    message: /must be one of: submitted, under_review, accepted, rejected/,
    build: (f) => (Object.assign(addRecords(f).submission, { status: 'approved' }), f.document),
  },
  {
    name: 'a serverId over 128 characters',
    path: '$.workspaces[0].shifts[0].serverId',
    message: /more than 128/,
    build: (f) => ((addRecords(f).shift.serverId = 's'.repeat(129)), f.document),
  },
  {
    name: 'a shift that ends before it starts',
    path: '$.workspaces[0].shifts[0].endedAt',
    message: /must not be before startedAt/,
    build: (f) => ((addRecords(f).shift.endedAt = '2026-03-10T07:59:59Z'), f.document),
  },
  {
    name: 'an unknown end reason',
    path: '$.workspaces[0].shifts[0].endReason',
    message: /must be one of: manual, player_left, server_shutdown, heartbeat_timeout/,
    build: (f) => (Object.assign(addRecords(f).shift, { endReason: 'crashed' }), f.document),
  },
  {
    name: 'a negative weekly requirement',
    path: '$.workspaces[0].settings.weeklyRequiredMinutes',
    message: />= 0/,
    build: (f) => (Object.assign(f.workspace, { settings: { weeklyRequiredMinutes: -5 } }), f.document),
  },
  {
    name: 'a fractional staff requirement',
    path: '$.workspaces[0].staff[1].weeklyRequiredMinutes',
    message: /must be integer/,
    build: (f) => ((f.staff.bob.weeklyRequiredMinutes = 1.5), f.document),
  },
  {
    name: 'a timestamp that is not ISO 8601',
    path: '$.workspaces[0].inactivityNotices[0].startsAt',
    message: /ISO 8601/,
    build: (f) => ((addRecords(f).notice.startsAt = 'yesterday'), f.document),
  },
  {
    name: 'a notice that ends when it starts',
    path: '$.workspaces[0].inactivityNotices[0].endsAt',
    message: /must be after startsAt/,
    build: (f) => {
      const { notice } = addRecords(f);
      notice.endsAt = notice.startsAt;
      return f.document;
    },
  },
  {
    name: 'an expiresAt that is not a date-time',
    path: '$.workspaces[0].applications[0].keys[1].expiresAt',
    message: /ISO 8601/,
    build: (f) => ((at(application(f).keys, 1).expiresAt = 'tomorrow'), f.document),
  },
  {
    name: 'a malformed imported secret',
    path: '$.workspaces[0].applications[0].keys[0].secret',
    message: /must be an API key/,
    build: (f) => ((at(application(f).keys, 0).secret = 'wsk_test_tooShort'), f.document),
  },
  {
    name: "an imported secret whose prefix is not the key's environment",
    path: '$.workspaces[0].applications[0].keys[0].secret',
    message: /prefix wsk_live_ but the key's environment is test/,
    build: (f) => ((at(application(f).keys, 0).secret = `wsk_live_${randomBase62(40)}`), f.document),
  },
  {
    name: 'a duplicate id (case-insensitively)',
    path: '$.workspaces[0].staff[1].id',
    message: /duplicate staff member id; first used at \$\.workspaces\[0\]\.staff\[0\]\.id/,
    build: (f) => ((f.staff.bob.id = f.staff.alice.id.toUpperCase()), f.document),
  },
  {
    name: 'a member listed twice',
    path: '$.workspaces[0].members[1].userId',
    message: /listed twice/,
    build: (f) => ((at(f.workspace.members, 1).userId = at(f.workspace.members, 0).userId), f.document),
  },
  {
    name: 'two staff of one workspace with the same gameUserId',
    path: '$.workspaces[0].staff[1].gameUserId',
    message: /already used by the staff member at \$\.workspaces\[0\]\.staff\[0\]/,
    build: (f) => ((f.staff.bob.gameUserId = f.staff.alice.gameUserId), f.document),
  },
  {
    name: 'a department of another workspace',
    path: '$.workspaces[0].staff[0].departmentId',
    message: /of another workspace/,
    build: (f, base) => ((f.staff.alice.departmentId = base.ids.departments.moderation), f.document),
  },
  {
    name: 'a department that exists nowhere',
    path: '$.workspaces[0].staff[0].departmentId',
    message: /neither in this document nor in the database/,
    build: (f) => ((f.staff.alice.departmentId = newId()), f.document),
  },
  {
    name: 'a notice for an unknown staff member',
    path: '$.workspaces[0].inactivityNotices[0].staffId',
    message: /neither in this document nor in the database/,
    build: (f) => ((addRecords(f).notice.staffId = newId()), f.document),
  },
  {
    name: 'a shift of a staff member of another workspace',
    path: '$.workspaces[0].shifts[0].staffId',
    message: /of another workspace/,
    build: (f, base) => ((addRecords(f).shift.staffId = base.ids.staff.alice), f.document),
  },
  {
    name: 'a shift of an application of another workspace',
    path: '$.workspaces[0].shifts[0].applicationId',
    message: /of another workspace/,
    build: (f, base) => ((addRecords(f).shift.applicationId = base.ids.applicationId), f.document),
  },
  {
    name: 'a staff id reused under another workspace',
    path: '$.workspaces[0].staff[0].id',
    message: new RegExp('already exists in workspace .+; an entity cannot move to another workspace'),
    build: (f, base) => ((f.staff.alice.id = base.ids.staff.alice), f.document),
  },
  {
    name: 'an application id reused under another workspace',
    path: '$.workspaces[0].applications[0].id',
    message: /already exists in workspace/,
    build: (f, base) => ((application(f).id = base.second.ids.applicationId), f.document),
  },
  {
    name: 'a slug used by another workspace',
    path: '$.workspaces[0].slug',
    message: /is already used by workspace/,
    build: (f, base) => ((f.workspace.slug = base.workspace.slug), f.document),
  },
  {
    name: 'a gameUserId already held by a staff member of the workspace in the database',
    path: '$.workspaces[0].staff[0].gameUserId',
    message: /already used by staff member .+ of this workspace/,
    build: (f, base) => ({
      workspaces: [
        {
          id: base.workspace.id,
          name: base.workspace.name,
          slug: base.workspace.slug,
          staff: [{ ...f.staff.alice, departmentId: null, gameUserId: base.staff.bob.gameUserId }],
        },
      ],
    }),
  },
  {
    name: "an imported secret that is another key's",
    path: '$.workspaces[0].applications[0].keys[0].secret',
    message: /already the secret of another key/,
    build: (f, base) => ((at(application(f).keys, 0).secret = base.keys.test.secret), f.document),
  },
  {
    name: 'a key id of another application',
    path: '$.workspaces[0].applications[0].keys[2].id',
    message: /already belongs to application/,
    build: (f, base) => {
      application(f).keys.push({ id: base.keys.live.id, environment: 'live', scopes: [] });
      return f.document;
    },
  },
  {
    name: "a change of an existing key's environment",
    path: '$.workspaces[0].applications[0].keys[0].environment',
    message: /already exists as a test key; its environment cannot change/,
    build: (_f, base) => {
      const document = structuredClone(base.document);
      const key = at(application({ workspace: at(document.workspaces, 0) }).keys, 0);
      key.environment = 'live';
      delete key.secret;
      return document;
    },
  },
];

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

  withTestStore(kind, (opened) => {
    store = opened;
  });
  beforeAll(async () => {
    base = buildFixture({ secondWorkspace: true });
    await applyProvisioning(store.db, base.document, new ManualClock(DEFAULT_NOW));
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
      ['user-reviewer', ['applications.review', 'applications.decide', 'staff.create']],
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

  it.each(INVALID_CASES)('rejects $name at $path and changes nothing', async ({ path, message, build }) => {
    const document = build(buildFixture(), base);
    const before = await dumpDatabase(store.db);

    const error = await rejection(apply(document));

    expect(error.issues).toContainEqual({ path, message: expect.stringMatching(message) });
    expect(error.message).toContain(path);
    expect(await dumpDatabase(store.db)).toEqual(before);
  });

  it('reports every structural problem at once', async () => {
    const fixture = buildFixture();
    Object.assign(fixture.staff.alice, { status: 'retired', gameUserId: 1001 });
    delete (fixture.workspace as Partial<WorkspaceDocument>).name;
    const error = await rejection(apply(fixture.document));
    expect(error.issues.map((issue) => issue.path).sort()).toEqual([
      '$.workspaces[0].name',
      '$.workspaces[0].staff[0].gameUserId',
      '$.workspaces[0].staff[0].status',
    ]);
  });

  it('a cross-workspace id reuse is rejected even next to valid changes of the owning workspace', async () => {
    const fixture = buildFixture();
    await apply(fixture.document);
    const before = await dumpDatabase(store.db);
    const document: ProvisioningDocument = structuredClone(base.document);
    at(document.workspaces, 0).name = 'Renamed meanwhile';
    at(at(document.workspaces, 1).staff, 0).id = fixture.ids.staff.alice;

    const error = await rejection(apply(document));

    expect(error.issues).toContainEqual({
      path: '$.workspaces[1].staff[0].id',
      message:
        `staff member ${fixture.ids.staff.alice} already exists in workspace ${fixture.ids.workspaceId}; ` +
        'an entity cannot move to another workspace',
    });
    expect(await dumpDatabase(store.db)).toEqual(before);
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
