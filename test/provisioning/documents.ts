/**
 * Provisioning documents for the tests: fixture helpers, the store the suites start from, the helper that expects a
 * refusal, and the invalid documents with the issue each must get.
 */
import { beforeAll } from 'vitest';
import { ManualClock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import { newId, randomBase62 } from '../../src/shared/ids.ts';
import { applyProvisioning, ProvisioningError } from '../../src/provisioning/apply.ts';
import type {
  NoticeDocument,
  ShiftDocument,
  StaffDocument,
  SubmissionDocument,
  WorkspaceDocument,
} from '../../src/provisioning/schema.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture, type Fixture, type WorkspaceFixture } from '../helpers/fixtures.ts';
import { withTestStore, type StoreKind } from '../helpers/stores.ts';

/** Adds a notice, two submissions and two history shifts to the fixture's workspace. */
export function addRecords(fixture: Fixture) {
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

export type BaseFixture = Fixture & { readonly second: WorkspaceFixture };

/** A store of `kind` for the suite, with a base document of two workspaces applied once before its tests. */
export function withProvisionedStore(kind: StoreKind, opened: (store: Store, base: BaseFixture) => void): void {
  let store: Store | undefined;
  withTestStore(kind, (created) => {
    store = created;
  });
  beforeAll(async () => {
    if (!store) throw new Error('the test store did not open');
    const base = buildFixture({ secondWorkspace: true });
    await applyProvisioning(store.db, base.document, new ManualClock(DEFAULT_NOW));
    opened(store, base);
  });
}

/** The i-th element of an optional list (fails the test when it is missing). */
export function at<T>(list: readonly T[] | undefined, index: number): T {
  const item = list?.[index];
  if (item === undefined) throw new Error(`no element ${index}`);
  return item;
}

export function application(fixture: { readonly workspace: WorkspaceDocument }) {
  return at(fixture.workspace.applications, 0);
}


export async function rejection(promise: Promise<unknown>): Promise<ProvisioningError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProvisioningError) return error;
    throw error;
  }
  throw new Error('expected a ProvisioningError');
}

export interface InvalidCase {
  readonly name: string;
  readonly path: string;
  readonly message: RegExp;
  /** Returns the document to apply, from a fresh fixture and the seeded base fixture. */
  readonly build: (fixture: Fixture, base: BaseFixture) => unknown;
}

export const INVALID_CASES: InvalidCase[] = [
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
    name: 'a maxNoticeDays of 0',
    path: '$.workspaces[0].settings.maxNoticeDays',
    message: />= 1/,
    build: (f) => (Object.assign(f.workspace, { settings: { maxNoticeDays: 0 } }), f.document),
  },
  {
    name: 'a maxNoticeDays over 365',
    path: '$.workspaces[0].settings.maxNoticeDays',
    message: /<= 365/,
    build: (f) => (Object.assign(f.workspace, { settings: { maxNoticeDays: 366 } }), f.document),
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
