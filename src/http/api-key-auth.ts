import { parseFlags, parseStringArray, type ApiKeyActor, type Environment } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { sql } from 'kysely';
import { rowsOf } from '../db/dialect.ts';
import type { Executor } from '../db/types.ts';
import { AppError, unauthenticated } from '../shared/errors.ts';
import { apiKeyEnvironment, hashApiKey, keyRefusal, type KeyCredential } from '../keys/api-key.ts';

/** A verified key is cached (for routes whose statement checks its credential) for at most this long. */
const CACHE_MS = 60_000;
const CACHE_CAPACITY = 10_000;

interface CachedKey {
  readonly actor: ApiKeyActor;
  readonly credential: KeyCredential;
  readonly verifiedAt: number;
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
  readonly environment: string;
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
  // Keys verified recently, by hash (never by the secret itself), least recently used first.
  const cache = new Map<string, CachedKey>();

  function remember(hash: string, entry: CachedKey): void {
    cache.delete(hash);
    cache.set(hash, entry);
    if (cache.size > CACHE_CAPACITY) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
  }

  /** Looks the key up now; caches it when valid, forgets it when not. */
  async function lookUp(environment: Environment, hash: string): Promise<CachedKey> {
    try {
      const verified = { ...(await verifyKey(environment, hash)), verifiedAt: clock.now() };
      remember(hash, verified);
      return verified;
    } catch (error) {
      cache.delete(hash);
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
      const now = clock.now();
      const hit = useCache ? cache.get(hash) : undefined;
      if (hit && hit.verifiedAt <= now && now - hit.verifiedAt <= CACHE_MS) {
        return { actor: hit.actor, credential: hit.credential, cached: true };
      }
      const verified = await lookUp(environment, hash);
      return { actor: verified.actor, credential: verified.credential, cached: false };
    },
  };
}
