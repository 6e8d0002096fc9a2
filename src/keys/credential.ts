/**
 * The credential of an API key actor: the values it was built from, its key row and application as they stood
 * when the key was looked up. A key looked up within the last minute may be used without a lookup (a cached key,
 * src/http/api-key-auth.ts); a statement that acts for it then checks that these values still hold
 * (`credentialHolds`), so its actor is exactly the one a lookup would build now (the known heartbeat's,
 * src/features/activity/shifts/repository.ts). What makes a key usable is defined here once, for the lookup (`keyRefusal`)
 * and for such a statement (`usableKey`).
 */
import { sql, type RawBuilder } from 'kysely';

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
