/**
 * The credential of an API key actor: the values it was built from, its key row and application as they stood
 * when the key was looked up. A key looked up within the last minute may be used without a lookup (a cached key,
 * src/http/api-key-auth.ts); a statement that acts for it then checks that these values still hold, so its actor
 * is exactly the one a lookup would build now (the heartbeat's, src/db/sql/).
 */
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
