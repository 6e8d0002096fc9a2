/**
 * Test data for every feature, seeded through the real provisioning path.
 *
 *   const fixture = buildFixture({ timezone: 'Europe/Berlin', extraKeys: { readOnly: { scopes: ['activity:read'] } } });
 *   await seed(ctx, fixture);
 *   headers: { authorization: `Bearer ${fixture.keys.readOnly.secret}` }
 *
 * Every call makes fresh uuids, slug and key secrets, so several fixtures can share one database. The document
 * is plain data: adjust `fixture.workspace` (or `fixture.document`) before `seed` for anything the options
 * do not cover.
 *
 * The workspace: chat guild GUILD_ID connected, weekly requirement 120 minutes, timezone UTC (by default).
 * - departments: `moderation` (180 weekly minutes), `support` (no requirement of its own);
 * - members: REVIEWER_USER_ID with every permission, READONLY_USER_ID with none;
 * - staff: `alice` (moderation, Moderator, active), `bob` (moderation, own requirement 60 minutes, active),
 *   `carol` (support, no rank, inactive); game user ids 1001..1003, chat user ids 5551..5553;
 * - one approved application, universes [UNIVERSE_ID], features activity and applications on, with keys
 *   `test` and `live` (every scope) plus any `extraKeys`.
 * With `secondWorkspace: true`, `fixture.second` is another such workspace (guild 900002, game user ids
 * 3001..3003, chat user ids 6661..6663, its only member SECOND_REVIEWER_USER_ID with every permission).
 */
import { SignJWT } from 'jose';
import { PERMISSIONS, SCOPES, type Environment, type Feature, type Scope } from '../../src/shared/actor.ts';
import type { Clock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import { newId, randomBase62 } from '../../src/shared/ids.ts';
import { applyProvisioning, type ProvisionResult } from '../../src/provisioning/apply.ts';
import type {
  ChatDocument,
  KeyDocument,
  ProvisioningDocument,
  StaffDocument,
  WorkspaceDocument,
} from '../../src/provisioning/schema.ts';
import { DEFAULT_NOW, TEST_JWT_SECRET } from './app.ts';

export const REVIEWER_USER_ID = 'user-reviewer';
export const READONLY_USER_ID = 'user-readonly';
export const SECOND_REVIEWER_USER_ID = 'user-second-reviewer';
export const GUILD_ID = '900001';
export const SECOND_GUILD_ID = '900002';
export const UNIVERSE_ID = '42';
export const ALL_SCOPES: readonly Scope[] = SCOPES;

export type StaffName = 'alice' | 'bob' | 'carol';

/** A key seeded with a known secret. */
export interface FixtureKey {
  readonly id: string;
  readonly secret: string;
  readonly environment: Environment;
  readonly scopes: readonly Scope[];
}

/** An extra key; defaults: environment test, every scope, not revoked, no expiry. */
export interface KeySpec {
  readonly environment?: Environment;
  readonly scopes?: readonly Scope[];
  readonly revoked?: boolean;
  /** ISO date-time, or null for none. */
  readonly expiresAt?: string | null;
}

export interface WorkspaceIds {
  readonly workspaceId: string;
  readonly departments: { readonly moderation: string; readonly support: string };
  readonly staff: Readonly<Record<StaffName, string>>;
  readonly applicationId: string;
}

export interface WorkspaceFixture<K extends string = never> {
  /** This workspace's entry in the document (the same object: changes before `seed` are applied). */
  readonly workspace: WorkspaceDocument;
  readonly ids: WorkspaceIds;
  readonly keys: Readonly<Record<'test' | 'live' | K, FixtureKey>>;
  /** The staff entries (gameUserId, chatUserId, …), by name. */
  readonly staff: Readonly<Record<StaffName, StaffDocument>>;
  readonly guildId: string;
}

export interface Fixture<K extends string = never> extends WorkspaceFixture<K> {
  readonly document: ProvisioningDocument;
}

/** Variants of the (first) workspace; every option has the default described at the top of this file. */
export interface FixtureOverrides<K extends string = never> {
  readonly timezone?: string;
  readonly weeklyRequiredMinutes?: number | null;
  readonly createStaffProfileOnAccept?: boolean;
  /** The chat binding; null leaves the workspace without one. */
  readonly chat?: ChatDocument | null;
  readonly approved?: boolean;
  /** Merged over `{ activity: true, applications: true }`. */
  readonly features?: Partial<Record<Feature, boolean>>;
  readonly allowedUniverseIds?: readonly string[];
  /** More keys on the application, by name: `keys[name]` in the fixture. */
  readonly extraKeys?: Readonly<Record<K, KeySpec>>;
  /** Adds `fixture.second`, an independent workspace in the same document. */
  readonly secondWorkspace?: boolean;
}

interface WorkspaceShape {
  readonly label: string;
  readonly guildId: string;
  readonly gameUserIdBase: number;
  readonly chatUserIdBase: number;
  readonly members: WorkspaceDocument['members'];
}

function key(environment: Environment, spec: KeySpec = {}): { doc: KeyDocument; fixtureKey: FixtureKey } {
  const id = newId();
  const secret = `wsk_${environment}_${randomBase62(40)}`;
  const scopes = [...(spec.scopes ?? ALL_SCOPES)];
  return {
    doc: { id, environment, scopes, secret, revoked: spec.revoked ?? false, expiresAt: spec.expiresAt ?? null },
    fixtureKey: { id, secret, environment, scopes },
  };
}

function staffMember(
  name: StaffName,
  n: number,
  shape: WorkspaceShape,
  extra: Pick<StaffDocument, 'departmentId' | 'rank' | 'status' | 'weeklyRequiredMinutes'>,
): StaffDocument {
  return {
    id: newId(),
    displayName: name.charAt(0).toUpperCase() + name.slice(1),
    gameUserId: String(shape.gameUserIdBase + n),
    gameUsername: name,
    chatUserId: String(shape.chatUserIdBase + n),
    ...extra,
  };
}

function buildWorkspace<K extends string>(shape: WorkspaceShape, options: FixtureOverrides<K>): WorkspaceFixture<K> {
  const departments = { moderation: newId(), support: newId() };
  const staff: Record<StaffName, StaffDocument> = {
    alice: staffMember('alice', 1, shape, { departmentId: departments.moderation, rank: 'Moderator', status: 'active' }),
    bob: staffMember('bob', 2, shape, {
      departmentId: departments.moderation,
      rank: 'Trial Moderator',
      status: 'active',
      weeklyRequiredMinutes: 60,
    }),
    carol: staffMember('carol', 3, shape, { departmentId: departments.support, rank: null, status: 'inactive' }),
  };
  const named: Array<[string, KeySpec & { environment: Environment }]> = [
    ['test', { environment: 'test' }],
    ['live', { environment: 'live' }],
    ...Object.entries<KeySpec>(options.extraKeys ?? {}).map(
      ([name, spec]): [string, KeySpec & { environment: Environment }] => [name, { ...spec, environment: spec.environment ?? 'test' }],
    ),
  ];
  const built = named.map(([name, spec]) => ({ name, ...key(spec.environment, spec) }));
  const applicationId = newId();
  const chat =
    options.chat === undefined
      ? { guildId: shape.guildId, status: 'connected', connectedAt: '2026-01-01T00:00:00Z' }
      : options.chat;
  const workspace: WorkspaceDocument = {
    id: newId(),
    name: `${shape.label} workspace`,
    slug: `${shape.label.toLowerCase()}-${randomBase62(10).toLowerCase()}`,
    timezone: options.timezone ?? 'UTC',
    settings: {
      createStaffProfileOnAccept: options.createStaffProfileOnAccept ?? false,
      weeklyRequiredMinutes: options.weeklyRequiredMinutes === undefined ? 120 : options.weeklyRequiredMinutes,
    },
    ...(chat === null ? {} : { chat }),
    departments: [
      { id: departments.moderation, name: 'Moderation', weeklyRequiredMinutes: 180 },
      { id: departments.support, name: 'Support' },
    ],
    members: (shape.members ?? []).map((m) => ({ ...m, permissions: [...m.permissions] })),
    staff: [staff.alice, staff.bob, staff.carol],
    applications: [
      {
        id: applicationId,
        name: `${shape.label} game`,
        approved: options.approved ?? true,
        allowedUniverseIds: [...(options.allowedUniverseIds ?? [UNIVERSE_ID])],
        features: { activity: true, applications: true, ...options.features },
        keys: built.map((b) => b.doc),
      },
    ],
  };
  return {
    workspace,
    ids: {
      workspaceId: workspace.id,
      departments,
      staff: { alice: staff.alice.id, bob: staff.bob.id, carol: staff.carol.id },
      applicationId,
    },
    keys: Object.fromEntries(built.map((b) => [b.name, b.fixtureKey])) as Record<'test' | 'live' | K, FixtureKey>,
    staff,
    guildId: shape.guildId,
  };
}

const PRIMARY: WorkspaceShape = {
  label: 'Acme',
  guildId: GUILD_ID,
  gameUserIdBase: 1000,
  chatUserIdBase: 5550,
  members: [
    { userId: REVIEWER_USER_ID, permissions: [...PERMISSIONS] },
    { userId: READONLY_USER_ID, permissions: [] },
  ],
};

const SECOND: WorkspaceShape = {
  label: 'Globex',
  guildId: SECOND_GUILD_ID,
  gameUserIdBase: 3000,
  chatUserIdBase: 6660,
  members: [{ userId: SECOND_REVIEWER_USER_ID, permissions: [...PERMISSIONS] }],
};

/** A provisioning document for one workspace (two with `secondWorkspace: true`), its ids and key secrets. */
export function buildFixture<K extends string = never>(
  overrides: FixtureOverrides<K> & { readonly secondWorkspace: true },
): Fixture<K> & { readonly second: WorkspaceFixture };
export function buildFixture<K extends string = never>(overrides?: FixtureOverrides<K>): Fixture<K>;
export function buildFixture<K extends string = never>(
  overrides: FixtureOverrides<K> = {},
): Fixture<K> & { readonly second?: WorkspaceFixture } {
  const primary = buildWorkspace(PRIMARY, overrides);
  const second = overrides.secondWorkspace ? buildWorkspace<never>(SECOND, {}) : undefined;
  const document: ProvisioningDocument = {
    workspaces: second ? [primary.workspace, second.workspace] : [primary.workspace],
  };
  return { ...primary, document, ...(second ? { second } : {}) };
}

/** Applies the fixture's document to the context's database. */
export async function seed(
  ctx: { readonly store: Store; readonly clock: Clock },
  fixture: { readonly document: ProvisioningDocument },
): Promise<ProvisionResult> {
  return applyProvisioning(ctx.store.db, fixture.document, ctx.clock);
}

export interface DashboardTokenOptions {
  /** Expiry in epoch ms; null leaves `exp` out. Default: one hour after DEFAULT_NOW. */
  readonly expiresAt?: number | null;
  /** Not-before in epoch ms. */
  readonly notBefore?: number;
  readonly issuer?: string;
  readonly audience?: string;
  /** Default TEST_JWT_SECRET, the secret of testConfig(). */
  readonly secret?: string;
}

const HOUR_MS = 3_600_000;

/** An HS256 dashboard token for `userId`, as the test app accepts it. */
export async function dashboardToken(userId: string, options: DashboardTokenOptions = {}): Promise<string> {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(userId);
  const expiresAt = options.expiresAt === undefined ? DEFAULT_NOW + HOUR_MS : options.expiresAt;
  if (expiresAt !== null) jwt.setExpirationTime(Math.floor(expiresAt / 1000));
  if (options.notBefore !== undefined) jwt.setNotBefore(Math.floor(options.notBefore / 1000));
  if (options.issuer !== undefined) jwt.setIssuer(options.issuer);
  if (options.audience !== undefined) jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

/** `{ authorization: 'Bearer …' }` for an API key secret or a dashboard token. */
export function bearer(credential: string): { authorization: string } {
  return { authorization: `Bearer ${credential}` };
}
