/**
 * What an API key is: its text form, `wsk_<environment>_<secret>` with a secret of 32 or more base62 characters;
 * its stored form (only its SHA-256 is ever stored); its generation; the credential an API key actor is built
 * from; and when a key is usable. Request authentication, provisioning and the statements that act for a cached
 * key all read it here, so it imports neither Fastify nor src/http/ nor a feature; of the database it holds only
 * the SQL fragment of the usable-key rule.
 *
 * The credential is the values an actor was built from, its key row and application as they stood when the key
 * was looked up. A key looked up within the last minute may be used without a lookup (a cached key,
 * src/http/api-key-auth.ts); a statement that acts for it then checks that these values still hold
 * (`credentialHolds`), so its actor is exactly the one a lookup would build now (the known heartbeat's,
 * src/features/activity/shifts/repository.ts). What makes a key usable is defined here once, for the lookup
 * (`keyRefusal`) and for such a statement (`usableKey`).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Environment } from '../shared/actor.ts';
import { randomBase62, sha256Hex } from '../shared/ids.ts';

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

export interface KeyCredential {
  /** The key's SHA-256 (its stored form). */
  readonly keyHash: string;
  readonly keyId: string;
  readonly environment: string;
  /** The key's scopes as stored (JSON text). */
  readonly scopes: string;
  readonly applicationId: string;
  readonly applicationName: string;
  readonly workspaceId: string;
  /** The application's features and allowed universes as stored (JSON text). */
  readonly features: string;
  readonly allowedUniverseIds: string;
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
export function usableKey(now: number): RawBuilder<boolean> {
  return sql<boolean>`k.revoked = 0 and (k.expires_at is null or k.expires_at > ${now}) and a.approved = 1`;
}

/** SQL: the credential's key and application still stand as they were looked up, and the key is usable at `now`. */
export function credentialHolds(credential: KeyCredential, now: number): RawBuilder<boolean> {
  const c = credential;
  return sql<boolean>`exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = ${c.keyHash} and k.id = ${c.keyId} and k.environment = ${c.environment} and k.scopes = ${c.scopes}
        and a.id = ${c.applicationId} and a.name = ${c.applicationName} and a.workspace_id = ${c.workspaceId}
        and a.features = ${c.features} and a.allowed_universe_ids = ${c.allowedUniverseIds}
        and ${usableKey(now)})`;
}
