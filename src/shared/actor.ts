/** Who is calling, with what rights. Routes build it once; services receive it whole. */
export const ENVIRONMENTS = ['test', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const SCOPES = [
  'activity:write',
  'activity:read',
  'staff:read',
  'staff:write',
  'applications:read',
  'applications:write',
  'console:link',
] as const;
export type Scope = (typeof SCOPES)[number];

export const PERMISSIONS = ['applications.review', 'applications.decide', 'staff.create', 'notices.decide', 'staff.rank'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const FEATURES = ['activity', 'applications'] as const;
export type Feature = (typeof FEATURES)[number];

/** What an API key actor is built from: its key and its application as stored. */
export interface KeyCredential {
  /** The key's SHA-256 (its stored form). */
  readonly keyHash: string;
  readonly keyId: string;
  readonly environment: Environment;
  /** The key's scopes as stored (JSON text). */
  readonly scopes: string;
  readonly applicationId: string;
  readonly applicationName: string;
  readonly workspaceId: string;
  /** The application's features and allowed universes as stored (JSON text). */
  readonly features: string;
  readonly allowedUniverseIds: string;
}

/**
 * An API key taken from the cache of recently verified keys rather than looked up for this request: the credential
 * its actor was built from and the request's time. A hot read's first statement checks that the credential still
 * holds at that time (auth/keys/api-key.ts, `unconfirmedKeyHolds`); when it does not, nothing the read did counts, the key
 * is looked up, and the read runs again as the key now stands.
 */
export interface UnconfirmedKey {
  readonly credential: KeyCredential;
  readonly at: number;
}

export interface ApiKeyActor {
  readonly kind: 'apiKey';
  readonly keyId: string;
  readonly environment: Environment;
  readonly scopes: readonly string[];
  readonly application: {
    readonly id: string;
    readonly name: string;
    readonly workspaceId: string;
    readonly features: Readonly<Record<string, boolean>>;
    readonly allowedUniverseIds: readonly string[];
  };
  /** Set only for a hot read whose key came from the cache (UnconfirmedKey); never on an actor that is kept. */
  readonly unconfirmedKey?: UnconfirmedKey;
}

export interface UserActor {
  readonly kind: 'user';
  readonly userId: string;
  /** Workspace id -> permissions held there. */
  readonly memberships: ReadonlyMap<string, ReadonlySet<string>>;
  /** Set when the caller named a workspace (and is a member of it). */
  readonly selectedWorkspaceId: string | null;
}

export type Actor = ApiKeyActor | UserActor;

// Actor rights are stored as JSON text columns; these read them back, dropping anything malformed.

/** A JSON array column (scopes, permissions, universe ids): its strings, anything else dropped. */
export function parseStringArray(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A JSON object column of flags (an application's features): its boolean entries. */
export function parseFlags(json: string): Record<string, boolean> {
  const value: unknown = JSON.parse(json);
  const flags: Record<string, boolean> = {};
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (typeof v === 'boolean') flags[k] = v;
  }
  return flags;
}

/**
 * The chat user a bot acts for, as its headers name them (`X-Chat-Guild-Id`, `X-Acting-Chat-User-Id`): the
 * services check both against the API key's workspace.
 */
export interface ChatContext {
  readonly guildId: string;
  readonly actingChatUserId: string;
}
