import type { ApiKeyActor, Environment } from '../actor.ts';
import type { Clock } from '../clock.ts';
import { runStatement, type ApiKeyRow } from '../db/sql/index.ts';
import type { Executor } from '../db/types.ts';
import { AppError } from '../errors.ts';
import { apiKeyEnvironment, hashApiKey } from '../keys/api-key.ts';
import { keyCredentialHolds, type KeyCredentialParams, type ReusedKey } from '../keys/credential.ts';
import { bearerToken, unauthenticated } from './bearer.ts';
import { parseFlags, parseStringArray } from './json-columns.ts';

type KeyRow = ApiKeyRow;

/** A verified key is reused (by routes that confirm it in their own statement) for at most this long. */
const REUSE_MS = 60_000;
const REUSE_CAPACITY = 10_000;

interface VerifiedKey {
  readonly actor: ApiKeyActor;
  readonly row: KeyRow;
  readonly verifiedAt: number;
}

export interface ApiKeyAuthenticator {
  /** The key's actor, looked up now (401/403 as the key and its application stand). */
  apiKey(authorization: string | string[] | undefined): Promise<ApiKeyActor>;
  /**
   * For a route that confirms the key in its own statement: a key verified within the last minute is reused
   * without a lookup (then `reused` says what to confirm); otherwise it is looked up as by `apiKey`.
   */
  apiKeyOrReused(authorization: string | string[] | undefined): Promise<{ actor: ApiKeyActor; reused: ReusedKey | null }>;
}

export interface ApiKeyAuthenticatorDeps {
  readonly db: Executor;
  readonly clock: Clock;
}

/** The bearer API key's environment (from its prefix) and hash; 401 when it is not an API key. */
function presentedKey(authorization: string | string[] | undefined): { environment: Environment; hash: string } {
  const token = bearerToken(authorization);
  const environment = apiKeyEnvironment(token);
  if (!environment) throw unauthenticated('A valid API key is required.');
  return { environment, hash: hashApiKey(token) };
}

function credentialParams(hash: string, row: KeyRow, now: number): KeyCredentialParams {
  return {
    credentialHash: hash,
    credentialKeyId: row.key_id,
    credentialEnvironment: row.environment,
    credentialScopes: row.scopes,
    credentialNow: now,
    credentialApplicationId: row.application_id,
    credentialApplicationName: row.application_name,
    credentialWorkspaceId: row.workspace_id,
    credentialFeatures: row.features,
    credentialUniverses: row.allowed_universe_ids,
  };
}

export function createApiKeyAuthenticator({ db, clock }: ApiKeyAuthenticatorDeps): ApiKeyAuthenticator {
  // Keys verified recently, by hash (never by the secret itself), least recently used first.
  const verified = new Map<string, VerifiedKey>();

  function remember(hash: string, entry: VerifiedKey): void {
    verified.delete(hash);
    verified.set(hash, entry);
    if (verified.size > REUSE_CAPACITY) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
  }

  /** Looks the key up now; remembers it when valid, forgets it when not. */
  async function lookUp(environment: Environment, hash: string): Promise<ApiKeyActor> {
    try {
      const { actor, row } = await verifyKey(environment, hash);
      remember(hash, { actor, row, verifiedAt: clock.now() });
      return actor;
    } catch (error) {
      verified.delete(hash);
      throw error;
    }
  }

  async function verifyKey(environment: Environment, hash: string): Promise<{ actor: ApiKeyActor; row: KeyRow }> {
    const [row] = await runStatement(db, 'findApiKey', [hash]);
    if (!row || row.environment !== environment || row.revoked === 1) {
      throw unauthenticated('The API key is unknown or revoked.');
    }
    if (row.expires_at !== null && row.expires_at <= clock.now()) throw unauthenticated('The API key has expired.');
    if (row.approved !== 1) {
      throw new AppError('application_not_approved', 'The application of this API key is not approved.');
    }
    return {
      row,
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
    async apiKey(authorization) {
      const { environment, hash } = presentedKey(authorization);
      return lookUp(environment, hash);
    },

    async apiKeyOrReused(authorization) {
      const { environment, hash } = presentedKey(authorization);
      const now = clock.now();
      const hit = verified.get(hash);
      if (!hit || now - hit.verifiedAt > REUSE_MS || now < hit.verifiedAt) {
        return { actor: await lookUp(environment, hash), reused: null };
      }
      const { row, actor } = hit;
      const params = credentialParams(hash, row, now);
      return { actor, reused: { actor, credential: { holds: keyCredentialHolds, params } } };
    },
  };
}
