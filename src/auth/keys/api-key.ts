/**
 * What an API key is and how a presented one is verified: its text form, `wsk_<environment>_<secret>` with a
 * secret of 32 or more base62 characters; its stored form (only its SHA-256 is ever stored); its generation; when
 * a key is usable; and the authenticator that turns a bearer token into the actor of its key. Request
 * authentication, provisioning and the statements that act for a cached key all read it here, so it imports
 * neither Fastify nor src/http/ nor a feature.
 *
 * The credential is the values an actor was built from, its key row and application as they stood when the key
 * was looked up. A key looked up within the last minute may be used without a lookup (a cached key, see
 * `verifiedApiKey`); a statement that acts for it then checks that these values still hold (`credentialHolds`),
 * so its actor is exactly the one a lookup would build now (the known heartbeat's,
 * src/features/activity/shifts/repository.ts). What makes a key usable is defined here once, for the lookup
 * (`keyRefusal`) and for such a statement (`usableKey`).
 */
import { sql, type RawBuilder } from 'kysely';
import type { NamedTerm } from '../../db/compiled.ts';
import { rowsOf } from '../../db/dialect.ts';
import type { Executor, SqlTerm } from '../../db/types.ts';
import { parseFlags, parseStringArray, type ApiKeyActor, type Environment, type KeyCredential, type UnconfirmedKey } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import { AppError, unauthenticated } from '../../shared/errors.ts';
import { randomBase62, sha256Hex } from '../../shared/ids.ts';

/** Every API key starts with this; a bearer token that does is never taken for a dashboard token. */
export const API_KEY_PREFIX = 'wsk_';

const API_KEY_RE = /^wsk_(test|live)_[0-9A-Za-z]{32,}$/;

/** Length of the secret part of the keys this service generates. */
const GENERATED_SECRET_LENGTH = 40;

export function isApiKeyFormat(token: string): boolean {
  return API_KEY_RE.test(token);
}

/** The environment a well-formed key names in its prefix; null when the token is not a well-formed key. */
export function apiKeyEnvironment(token: string): Environment | null {
  const match = API_KEY_RE.exec(token);
  return match ? (match[1] as Environment) : null;
}

/** The stored form of a key: lowercase hex SHA-256 of the whole key. */
export function hashApiKey(secret: string): string {
  return sha256Hex(secret);
}

/** A new key for the environment, from a cryptographic source. Shown once; store only its hash. */
export function generateApiKey(environment: Environment): string {
  return `${API_KEY_PREFIX}${environment}_${randomBase62(GENERATED_SECRET_LENGTH)}`;
}

/** A key row and its application's approval, as stored. */
export interface KeyStanding {
  readonly revoked: number;
  readonly expires_at: number | null;
  readonly approved: number;
}

/**
 * Why a key is not usable at `now`, or null when it is: a usable key is not revoked, not expired, and its
 * application is approved (`usableKey` says the same in SQL).
 */
export function keyRefusal(key: KeyStanding, now: number): 'revoked' | 'expired' | 'not_approved' | null {
  if (key.revoked === 1) return 'revoked';
  if (key.expires_at !== null && key.expires_at <= now) return 'expired';
  if (key.approved !== 1) return 'not_approved';
  return null;
}

/** SQL: the key `k` (api_keys) of the application `a` (applications) is usable at `now` (keyRefusal). */
export function usableKey(now: SqlTerm<number>): RawBuilder<boolean> {
  return sql<boolean>`k.revoked = 0 and (k.expires_at is null or k.expires_at > ${now}) and a.approved = 1`;
}

/** A credential's values in a statement: bound, or read from the rows of a statement that acts for many keys. */
export type CredentialTerms = { readonly [K in keyof KeyCredential]: SqlTerm<KeyCredential[K]> };

/** The terms of a credential whose values a statement takes by name (a statement compiled once, db/compiled.ts). */
export function namedCredential(term: NamedTerm<KeyCredential>): CredentialTerms {
  return {
    keyHash: term('keyHash'),
    keyId: term('keyId'),
    environment: term('environment'),
    scopes: term('scopes'),
    applicationId: term('applicationId'),
    applicationName: term('applicationName'),
    workspaceId: term('workspaceId'),
    features: term('features'),
    allowedUniverseIds: term('allowedUniverseIds'),
  };
}

/** SQL: the credential's key and application still stand as they were looked up, and the key is usable at `now`. */
export function credentialHolds(credential: CredentialTerms, now: SqlTerm<number>): RawBuilder<boolean> {
  const c = credential;
  return sql<boolean>`exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = ${c.keyHash} and k.id = ${c.keyId} and k.environment = ${c.environment} and k.scopes = ${c.scopes}
        and a.id = ${c.applicationId} and a.name = ${c.applicationName} and a.workspace_id = ${c.workspaceId}
        and a.features = ${c.features} and a.allowed_universe_ids = ${c.allowedUniverseIds}
        and ${usableKey(now)})`;
}

// ---------------------------------------------------------------------------------------------------------
// The credential as a statement's precondition
// ---------------------------------------------------------------------------------------------------------

/*
 * What a request assumes of the database, checked by its first statement rather than by a statement of its own:
 * the credential of an API key verified within the last minute (credentialHolds). The statement selects it as a
 * column (`holdsColumn`); when it does not hold, the request has read or written nothing that counts
 * (`PreconditionFailed`), and its caller finds out why, by looking the key up, and runs it again.
 */

/** SQL, true when what the request assumes holds. */
export type Precondition = RawBuilder<boolean>;

/** Thrown when a request's precondition does not hold: nothing it read or wrote counts. */
export class PreconditionFailed extends Error {
  constructor() {
    super("the request's precondition does not hold");
  }
}

/** The select-list entry `, <precondition> as holds`, or nothing without a precondition. */
export function holdsColumn(precondition: Precondition | undefined): RawBuilder<unknown> {
  return precondition === undefined ? sql`` : sql`, ${precondition} as holds`;
}

/** What a hot read's first statement checks of an unconfirmed key (shared/actor.ts): none for a key looked up now. */
export function unconfirmedKeyHolds(key: UnconfirmedKey | undefined): Precondition | undefined {
  return key === undefined ? undefined : credentialHolds(key.credential, key.at);
}

/** Throws PreconditionFailed when the statement checked a precondition and its row says it does not hold. */
export function checkHolds(checked: boolean, row: { readonly holds?: unknown } | undefined): void {
  if (checked && !row?.holds) throw new PreconditionFailed();
}

// ---------------------------------------------------------------------------------------------------------
// Verifying a presented key
// ---------------------------------------------------------------------------------------------------------

/**
 * Credentials verified recently (API keys here, dashboard tokens in auth/dashboard-auth.ts), so that a request
 * presenting one again need not verify it again: by a key that is never the secret itself (its hash), least
 * recently used first, at most `capacity` of them. An entry answers from the instant it was verified until its own
 * limit (at most `ttlMs` later), and never for a clock that went back before its verification.
 */
export class RecentlyVerified<Value> {
  private readonly entries = new Map<string, { readonly value: Value; readonly verifiedAt: number; readonly until: number }>();

  private readonly ttlMs: number;
  private readonly capacity: number;

  constructor(ttlMs: number, capacity: number) {
    this.ttlMs = ttlMs;
    this.capacity = capacity;
  }

  /** The value verified under `key`, while it may still be used at `now`. */
  get(key: string, now: number): Value | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (now < entry.verifiedAt || now > entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Remembers `value` as verified at `now`, usable until `until` (inclusive) when that comes before `ttlMs`. */
  remember(key: string, value: Value, now: number, until: number = Number.POSITIVE_INFINITY): void {
    this.entries.delete(key);
    this.entries.set(key, { value, verifiedAt: now, until: Math.min(until, now + this.ttlMs) });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A verified key is cached (for routes whose statement checks its credential) for at most this long. */
const CACHE_MS = 60_000;
const CACHE_CAPACITY = 10_000;

interface CachedKey {
  readonly actor: ApiKeyActor;
  readonly credential: KeyCredential;
}

/** An API key actor and the credential it was built from. */
export interface VerifiedActor {
  readonly actor: ApiKeyActor;
  readonly credential: KeyCredential;
  /** True when the key was not looked up for this request (a cached key): its credential is then unconfirmed. */
  readonly cached: boolean;
}

export interface ApiKeyAuthenticator {
  /** The actor of a bearer token's key, looked up now (401/403 as the key and its application stand). */
  apiKey(token: string): Promise<ApiKeyActor>;
  /**
   * The key's actor and credential. With `useCache`, for a route whose statement checks the credential, a key
   * verified within the last minute comes from the cache, without a lookup; otherwise it is looked up as by
   * `apiKey`.
   */
  verifiedApiKey(token: string, useCache: boolean): Promise<VerifiedActor>;
}

export interface ApiKeyAuthenticatorDeps {
  readonly db: Executor;
  readonly clock: Clock;
}

/** The key and application values an API key actor is built from. */
interface ApiKeyRow {
  readonly key_id: string;
  readonly environment: Environment;
  readonly scopes: string;
  readonly revoked: number;
  readonly expires_at: number | null;
  readonly application_id: string;
  readonly application_name: string;
  readonly workspace_id: string;
  readonly approved: number;
  readonly features: string;
  readonly allowed_universe_ids: string;
}

/** The key row and its application, by the key's hash: every request with an API key that is not cached. */
async function findApiKey(db: Executor, keyHash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await rowsOf(
    db,
    sql<ApiKeyRow>`select k.id as key_id, k.environment, k.scopes, k.revoked, k.expires_at,
       a.id as application_id, a.name as application_name, a.workspace_id, a.approved, a.features,
       a.allowed_universe_ids
from api_keys as k
join applications as a on a.id = k.application_id
where k.key_hash = ${keyHash}`,
  );
  return row;
}

/** The bearer token's environment (from its key prefix) and hash; 401 when it is not an API key. */
function presentedKey(token: string): { environment: Environment; hash: string } {
  const environment = apiKeyEnvironment(token);
  if (!environment) throw unauthenticated('A valid API key is required.');
  return { environment, hash: hashApiKey(token) };
}

function credentialOf(hash: string, row: ApiKeyRow): KeyCredential {
  return {
    keyHash: hash,
    keyId: row.key_id,
    environment: row.environment,
    scopes: row.scopes,
    applicationId: row.application_id,
    applicationName: row.application_name,
    workspaceId: row.workspace_id,
    features: row.features,
    allowedUniverseIds: row.allowed_universe_ids,
  };
}

export function createApiKeyAuthenticator({ db, clock }: ApiKeyAuthenticatorDeps): ApiKeyAuthenticator {
  // Keys verified recently, by hash.
  const cache = new RecentlyVerified<CachedKey>(CACHE_MS, CACHE_CAPACITY);

  /** Looks the key up now; caches it when valid, forgets it when not. */
  async function lookUp(environment: Environment, hash: string): Promise<CachedKey> {
    try {
      const verified = await verifyKey(environment, hash);
      cache.remember(hash, verified, clock.now());
      return verified;
    } catch (error) {
      cache.forget(hash);
      throw error;
    }
  }

  async function verifyKey(
    environment: Environment,
    hash: string,
  ): Promise<{ actor: ApiKeyActor; credential: KeyCredential }> {
    const row = await findApiKey(db, hash);
    const refusal = row && row.environment === environment ? keyRefusal(row, clock.now()) : 'revoked';
    if (!row || refusal === 'revoked') throw unauthenticated('The API key is unknown or revoked.');
    if (refusal === 'expired') throw unauthenticated('The API key has expired.');
    if (refusal === 'not_approved') {
      throw new AppError('application_not_approved', 'The application of this API key is not approved.');
    }
    return {
      credential: credentialOf(hash, row),
      actor: {
        kind: 'apiKey',
        keyId: row.key_id,
        environment,
        scopes: parseStringArray(row.scopes),
        application: {
          id: row.application_id,
          name: row.application_name,
          workspaceId: row.workspace_id,
          features: parseFlags(row.features),
          allowedUniverseIds: parseStringArray(row.allowed_universe_ids),
        },
      },
    };
  }

  return {
    async apiKey(token) {
      const { environment, hash } = presentedKey(token);
      return (await lookUp(environment, hash)).actor;
    },

    async verifiedApiKey(token, useCache) {
      const { environment, hash } = presentedKey(token);
      const hit = useCache ? cache.get(hash, clock.now()) : undefined;
      if (hit) return { actor: hit.actor, credential: hit.credential, cached: true };
      const verified = await lookUp(environment, hash);
      return { actor: verified.actor, credential: verified.credential, cached: false };
    },
  };
}
