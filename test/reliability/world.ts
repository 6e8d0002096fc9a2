/**
 * One seeded world for the reliability tests: two workspaces (A = `fixture`, B = `fixture.second`), a second
 * application in A, keys of every kind, dashboard users, submissions in every state and shifts of every owner.
 *
 * Active shifts (all started at DEFAULT_NOW through the API; the clock never moves, so none times out):
 *   aTest  alice of A, application 1, test      aLive  alice of A, application 1, live
 *   aBob   bob of A, application 1, test        aApp2  bob of A, application 2, test
 *   bTest  alice of B, B's application, test
 * Completed history (DEFAULT_NOW is Wednesday 2026-03-11 12:00 UTC): alice of A worked 30 minutes with the test
 * key (11:00-11:30) and 60 minutes with the live key (10:00-11:00) today; alice of B 20 minutes (test).
 */
import type { Kysely } from 'kysely';
import { PERMISSIONS } from '../../src/shared/actor.ts';
import type { Database } from '../../src/db/types.ts';
import { newId, randomBase62, sha256Hex } from '../../src/shared/ids.ts';
import type { SubmissionDocument, WorkspaceDocument } from '../../src/provisioning/schema.ts';
import { submissionDoc } from '../features/applications/helpers.ts';
import { addSecondApplication } from '../features/activity/shifts/shift-client.ts';
import type { TestContext } from '../helpers/app.ts';
import type { Inject } from '../helpers/contract.ts';
import {
  bearer,
  buildFixture,
  dashboardToken,
  READONLY_USER_ID,
  REVIEWER_USER_ID,
  SECOND_REVIEWER_USER_ID,
  seed,
  UNIVERSE_ID,
  type Fixture,
  type FixtureKey,
  type WorkspaceFixture,
} from '../helpers/fixtures.ts';

/** Member of both workspaces with every permission in each. */
export const MULTI_USER_ID = 'user-reliability-multi';

type ExtraKey = 'revoked' | 'expired' | 'readOnly' | 'writeOnly' | 'staffOnly';

export interface World {
  readonly a: Fixture<ExtraKey>;
  readonly b: WorkspaceFixture;
  /** The second application of workspace A: one test key with every scope. */
  readonly app2: FixtureKey & { readonly applicationId: string };
  /** A workspace whose application is not approved. */
  readonly unapproved: Fixture;
  /** A workspace whose application has the activity feature off. */
  readonly featureOff: Fixture;
  /** A workspace whose application has the applications feature off. */
  readonly applicationsOff: Fixture;
  /** An open application form in each workspace (one required short-text question, `why`). */
  readonly forms: { readonly a: string; readonly b: string };
  /** A game user id that applied (provisioned, live, still `submitted`) to A's form and to B's form. */
  readonly applicantGameUserId: string;
  /** Those two submissions. */
  readonly applicantSubmissions: { readonly a: string; readonly b: string };
  readonly tokens: { readonly reviewer: string; readonly readonly: string; readonly second: string; readonly multi: string };
  readonly submissions: {
    readonly a: { readonly submitted: readonly string[]; readonly underReview: string; readonly accepted: string; readonly rejected: string };
    readonly b: { readonly submitted: readonly string[] };
  };
  readonly shifts: {
    readonly aTest: string;
    readonly aLive: string;
    readonly aBob: string;
    readonly aApp2: string;
    readonly bTest: string;
    readonly aCompletedTest: string;
    readonly aCompletedLive: string;
  };
  /**
   * Provisioned (so `live`) pending inactivity notices of alice: three of A's (each route's control acts on its
   * own) and one of B's; and a denied one of A's, which no decision may change.
   */
  readonly notices: {
    readonly a: { readonly approve: string; readonly deny: string; readonly cancel: string; readonly denied: string };
    readonly b: string;
  };
  /**
   * Console sign-in: the chat user id of A's reviewer (B's reviewer has the same one in B), and codes of sign-in
   * links for A's reviewer: one to exchange, one already used.
   */
  readonly console: { readonly reviewerChatUserId: string; readonly code: string; readonly usedCode: string };
  /** Every credential secret of the world (key secrets and dashboard tokens). */
  readonly secrets: readonly string[];
}

const REVIEWER_CHAT_USER_ID = '7001';

/** Sign-in link codes for the reviewer of A, stored as the gateway stores them (hash only). */
async function signInCodes(db: Kysely<Database>, now: number): Promise<{ code: string; usedCode: string }> {
  const code = randomBase62(43);
  const usedCode = randomBase62(43);
  const row = (text: string, usedAt: number | null) => ({
    code_hash: sha256Hex(text),
    user_id: REVIEWER_USER_ID,
    created_at: now,
    expires_at: now + 600_000,
    used_at: usedAt,
  });
  await db.insertInto('console_sign_in_codes').values([row(code, null), row(usedCode, now)]).execute();
  return { code, usedCode };
}

function submissions(workspace: WorkspaceDocument, docs: SubmissionDocument[]): string[] {
  workspace.submissions = [...(workspace.submissions ?? []), ...docs];
  return docs.map((d) => d.id);
}

function completedShift(
  workspace: WorkspaceDocument,
  shift: { staffId: string; applicationId: string; environment: 'test' | 'live'; startedAt: string; endedAt: string },
): string {
  const id = newId();
  workspace.shifts = [
    ...(workspace.shifts ?? []),
    { id, ...shift, endReason: 'manual', universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-history' },
  ];
  return id;
}

async function startShift(inject: Inject, secret: string, gameUserId: string): Promise<string> {
  const res = await inject({
    method: 'POST',
    url: '/v1/activity/shifts/start',
    headers: { ...bearer(secret), 'content-type': 'application/json', 'idempotency-key': `world-${newId()}` },
    payload: JSON.stringify({ gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' }),
  });
  if (res.statusCode !== 200) throw new Error(`world: start failed with ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: { shift: { id: string } } }).data.shift.id;
}

export async function seedWorld(ctx: Pick<TestContext, 'store' | 'clock' | 'inject'>): Promise<World> {
  const fixture = buildFixture<ExtraKey>({
    secondWorkspace: true,
    extraKeys: {
      revoked: { revoked: true },
      expired: { expiresAt: '2026-03-01T00:00:00Z' },
      readOnly: { scopes: ['activity:read'] },
      writeOnly: { scopes: ['activity:write'] },
      staffOnly: { scopes: ['staff:read'] },
    },
  });
  const b = fixture.second;
  const app2 = addSecondApplication(fixture);
  for (const member of fixture.workspace.members ?? []) {
    if (member.userId === REVIEWER_USER_ID) member.chatUserId = REVIEWER_CHAT_USER_ID;
  }
  for (const member of b.workspace.members ?? []) member.chatUserId = REVIEWER_CHAT_USER_ID;
  fixture.workspace.members!.push({ userId: MULTI_USER_ID, permissions: [...PERMISSIONS] });
  b.workspace.members!.push({ userId: MULTI_USER_ID, permissions: [...PERMISSIONS] });

  const aSubmitted = submissions(fixture.workspace, [submissionDoc(), submissionDoc(), submissionDoc()]);
  const [underReview, accepted, rejected] = submissions(fixture.workspace, [
    submissionDoc({ status: 'under_review' }),
    submissionDoc({ status: 'accepted' }),
    submissionDoc({ status: 'rejected' }),
  ]);
  const bSubmitted = submissions(b.workspace, [submissionDoc(), submissionDoc()]);

  const aliceA = fixture.ids.staff.alice;
  const aCompletedTest = completedShift(fixture.workspace, {
    staffId: aliceA,
    applicationId: fixture.ids.applicationId,
    environment: 'test',
    startedAt: '2026-03-11T11:00:00Z',
    endedAt: '2026-03-11T11:30:00Z',
  });
  const aCompletedLive = completedShift(fixture.workspace, {
    staffId: aliceA,
    applicationId: fixture.ids.applicationId,
    environment: 'live',
    startedAt: '2026-03-11T10:00:00Z',
    endedAt: '2026-03-11T11:00:00Z',
  });
  completedShift(b.workspace, {
    staffId: b.ids.staff.alice,
    applicationId: b.ids.applicationId,
    environment: 'test',
    startedAt: '2026-03-11T09:00:00Z',
    endedAt: '2026-03-11T09:20:00Z',
  });

  const forms = { a: newId(), b: newId() };
  const form = (id: string) => ({
    id,
    name: 'Moderator application',
    slug: 'moderator',
    status: 'open' as const,
    questions: [{ id: 'why', label: 'Why?', type: 'short_text' as const, required: true }],
  });
  fixture.workspace.forms = [form(forms.a)];
  b.workspace.forms = [form(forms.b)];
  const applicantGameUserId = '555000';
  const applicant = { gameUserId: applicantGameUserId, gameUsername: 'applicant', displayName: 'Applicant' };
  const [applicantA] = submissions(fixture.workspace, [submissionDoc({ applicant, formId: forms.a, answers: { why: 'a' } })]);
  const [applicantB] = submissions(b.workspace, [submissionDoc({ applicant, formId: forms.b, answers: { why: 'b' } })]);

  const pendingNotice = (workspace: WorkspaceDocument, staffId: string, day: number, status: 'pending' | 'denied' = 'pending'): string => {
    const id = newId();
    const startsAt = `2026-04-${String(day).padStart(2, '0')}T00:00:00Z`;
    const endsAt = `2026-04-${String(day + 1).padStart(2, '0')}T00:00:00Z`;
    workspace.inactivityNotices = [...(workspace.inactivityNotices ?? []), { id, staffId, startsAt, endsAt, reason: 'trip', status }];
    return id;
  };
  const notices = {
    a: { approve: pendingNotice(fixture.workspace, aliceA, 1), deny: pendingNotice(fixture.workspace, aliceA, 3), cancel: pendingNotice(fixture.workspace, aliceA, 5),
      denied: pendingNotice(fixture.workspace, aliceA, 7, 'denied'),
    },
    b: pendingNotice(b.workspace, b.ids.staff.alice, 1),
  };

  const unapproved = buildFixture({ approved: false });
  const featureOff = buildFixture({ features: { activity: false } });
  const applicationsOff = buildFixture({ features: { applications: false } });
  for (const f of [fixture, unapproved, featureOff, applicationsOff]) await seed(ctx, f);

  const shifts = {
    aTest: await startShift(ctx.inject, fixture.keys.test.secret, fixture.staff.alice.gameUserId),
    aLive: await startShift(ctx.inject, fixture.keys.live.secret, fixture.staff.alice.gameUserId),
    aBob: await startShift(ctx.inject, fixture.keys.test.secret, fixture.staff.bob.gameUserId),
    aApp2: await startShift(ctx.inject, app2.secret, fixture.staff.bob.gameUserId),
    bTest: await startShift(ctx.inject, b.keys.test.secret, b.staff.alice.gameUserId),
    aCompletedTest,
    aCompletedLive,
  };
  const tokens = {
    reviewer: await dashboardToken(REVIEWER_USER_ID),
    readonly: await dashboardToken(READONLY_USER_ID),
    second: await dashboardToken(SECOND_REVIEWER_USER_ID),
    multi: await dashboardToken(MULTI_USER_ID),
  };
  const codes = await signInCodes(ctx.store.db, ctx.clock.now());
  const keySecrets = [fixture, b, unapproved, featureOff, applicationsOff].flatMap((f) =>
    Object.values<FixtureKey>(f.keys).map((k) => k.secret),
  );
  return {
    a: fixture,
    b,
    app2,
    unapproved,
    featureOff,
    applicationsOff,
    forms,
    applicantGameUserId,
    applicantSubmissions: { a: applicantA!, b: applicantB! },
    tokens,
    notices,
    submissions: {
      a: { submitted: aSubmitted, underReview: underReview!, accepted: accepted!, rejected: rejected! },
      b: { submitted: bSubmitted },
    },
    shifts,
    console: { reviewerChatUserId: REVIEWER_CHAT_USER_ID, ...codes },
    secrets: [...keySecrets, app2.secret, ...Object.values(tokens), codes.code, codes.usedCode],
  };
}

/**
 * Which tables a snapshot compares: all but idempotency_records, which legitimately keeps the result of a rejected
 * write (4xx results are replayed). A record, so that a table added to Database must be listed here to compile.
 */
const COMPARED: Record<keyof Database, boolean> = {
  workspaces: true,
  departments: true,
  members: true,
  staff: true,
  inactivity_notices: true,
  applications: true,
  api_keys: true,
  submissions: true,
  application_forms: true,
  erasures: true,
  commands: true,
  events: true,
  shifts: true,
  idempotency_records: false,
  webhook_endpoints: true,
  webhook_events: true,
  webhook_deliveries: true,
  webhook_attempts: true,
  activity_totals: true,
  activity_totals_extent: true,
  activity_changes: true,
  gateway_signing_key: true,
  console_sign_in_codes: true,
  discord_connections: true,
  roblox_settings: true,
  ranks: true,
  rank_changes: true,
  roblox_erasure_requests: true,
  roblox_call_windows: true,
};
const COMPARED_TABLES = (Object.keys(COMPARED) as Array<keyof Database>).filter((table) => COMPARED[table]);

export type Snapshot = Record<string, string[]>;

/** Every row of every compared table, as sorted JSON: two snapshots are equal exactly when nothing changed. */
export async function businessSnapshot(db: Kysely<Database>): Promise<Snapshot> {
  const tables = await Promise.all(
    COMPARED_TABLES.map(async (table) => {
      const rows = await db.selectFrom(table).selectAll().execute();
      return [table, rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort()] as const;
    }),
  );
  return Object.fromEntries(tables);
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return Object.keys(before).filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]));
}
