import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey, type JWTPayload } from 'jose';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { ApiKeyActor, Environment, UserActor } from '../actor.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { prepared, type Param } from '../db/prepared.js';
import type { Executor } from '../db/types.js';
import { AppError } from '../errors.js';
import { isUuid, sha256Hex } from '../ids.js';

const API_KEY_RE = /^wsk_(test|live)_[0-9A-Za-z]{32,}$/;
const BEARER_RE = /^Bearer ([^\s]+)$/i;
const ASYMMETRIC_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export function isApiKeyFormat(token: string): boolean {
  return API_KEY_RE.test(token);
}

export function apiKeyEnvironment(token: string): Environment | null {
  const match = API_KEY_RE.exec(token);
  return match ? (match[1] as Environment) : null;
}

export function hashApiKey(secret: string): string {
  return sha256Hex(secret);
}

/** The key row and its application, by the key's hash (every authenticated request runs it: built once). */
const findKeyByHash = prepared<{ hash: string }, KeyRow>((db, p) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('applications as a', 'a.id', 'k.application_id')
    .select([
      'k.id as keyId',
      'k.environment',
      'k.scopes',
      'k.revoked',
      'k.expires_at',
      'a.id as applicationId',
      'a.name as applicationName',
      'a.workspace_id',
      'a.approved',
      'a.features',
      'a.allowed_universe_ids',
    ])
    .where('k.key_hash', '=', p('hash')),
);

interface KeyRow {
  readonly keyId: string;
  readonly environment: string;
  readonly scopes: string;
  readonly revoked: number;
  readonly expires_at: number | null;
  readonly applicationId: string;
  readonly applicationName: string;
  readonly workspace_id: string;
  readonly approved: number;
  readonly features: string;
  readonly allowed_universe_ids: string;
}

/** A verified key is reused (by routes that confirm it in their own statement) for at most this long. */
const REUSE_MS = 60_000;
const REUSE_CAPACITY = 10_000;

/** The key and application values an actor was built from; its credential holds while all are unchanged. */
export type KeyCredentialParams = {
  readonly credentialHash: string;
  readonly credentialKeyId: string;
  readonly credentialEnvironment: string;
  readonly credentialScopes: string;
  readonly credentialNow: number;
  readonly credentialApplicationId: string;
  readonly credentialApplicationName: string;
  readonly credentialWorkspaceId: string;
  readonly credentialFeatures: string;
  readonly credentialUniverses: string;
};

/**
 * The key is still unrevoked, unexpired and unchanged, and its application approved and unchanged: the condition
 * under which an actor reused without a lookup is exactly the actor a lookup would build now.
 */
export const keyCredentialHolds = (p: Param<KeyCredentialParams>): Expression<SqlBool> => sql<SqlBool>`exists (
  select 1 from api_keys as ck inner join applications as ca on ca.id = ck.application_id
  where ck.key_hash = ${p('credentialHash')} and ck.id = ${p('credentialKeyId')}
    and ck.environment = ${p('credentialEnvironment')} and ck.scopes = ${p('credentialScopes')} and ck.revoked = 0
    and (ck.expires_at is null or ck.expires_at > ${p('credentialNow')})
    and ca.id = ${p('credentialApplicationId')} and ca.name = ${p('credentialApplicationName')}
    and ca.workspace_id = ${p('credentialWorkspaceId')} and ca.approved = 1
    and ca.features = ${p('credentialFeatures')} and ca.allowed_universe_ids = ${p('credentialUniverses')})`;

/** A key's actor reused without a lookup, and the condition a statement must check for it (see keyCredentialHolds). */
export interface ReusedKey {
  readonly actor: ApiKeyActor;
  readonly credential: { readonly holds: typeof keyCredentialHolds; readonly params: KeyCredentialParams };
}

interface VerifiedKey {
  readonly actor: ApiKeyActor;
  readonly row: KeyRow;
  readonly verifiedAt: number;
}

function unauthenticated(message = 'A valid bearer credential is required.'): AppError {
  return new AppError('unauthenticated', message);
}

export function bearerToken(header: string | string[] | undefined): string {
  if (typeof header !== 'string') throw unauthenticated();
  const match = BEARER_RE.exec(header);
  if (!match?.[1]) throw unauthenticated();
  return match[1];
}

function parseStringArray(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function parseFlags(json: string): Record<string, boolean> {
  const value: unknown = JSON.parse(json);
  const flags: Record<string, boolean> = {};
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (typeof v === 'boolean') flags[k] = v;
  }
  return flags;
}

export interface AuthenticatorDeps {
  readonly db: Executor;
  readonly clock: Clock;
  readonly config: Pick<Config, 'jwtSecret' | 'jwtJwksUrl' | 'jwtIssuer' | 'jwtAudience'>;
}

export interface Authenticator {
  /** The key's actor, looked up now (401/403 as the key and its application stand). */
  apiKey(authorization: string | string[] | undefined): Promise<ApiKeyActor>;
  /**
   * For a route that confirms the key in its own statement: a key verified within the last minute is reused
   * without a lookup (then `reused` says what to confirm); otherwise it is looked up as by `apiKey`.
   */
  apiKeyOrReused(authorization: string | string[] | undefined): Promise<{ actor: ApiKeyActor; reused: ReusedKey | null }>;
  user(authorization: string | string[] | undefined, workspaceSelector: string | undefined): Promise<UserActor>;
}

export function createAuthenticator({ db, clock, config }: AuthenticatorDeps): Authenticator {
  const secretKey = config.jwtSecret ? new TextEncoder().encode(config.jwtSecret) : null;
  const jwks: JWTVerifyGetKey | null = config.jwtJwksUrl ? createRemoteJWKSet(new URL(config.jwtJwksUrl)) : null;

  async function verifyJwt(token: string): Promise<JWTPayload> {
    const common = {
      requiredClaims: ['exp', 'sub'],
      currentDate: new Date(clock.now()),
      ...(config.jwtIssuer ? { issuer: config.jwtIssuer } : {}),
      ...(config.jwtAudience ? { audience: config.jwtAudience } : {}),
    };
    const header = token.split('.')[0] ?? '';
    let alg = '';
    try {
      alg = String((JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg ?? '');
    } catch {
      throw unauthenticated('The dashboard token is malformed.');
    }
    try {
      if (alg === 'HS256' && secretKey) {
        return (await jwtVerify(token, secretKey, { ...common, algorithms: ['HS256'] })).payload;
      }
      if (jwks && ASYMMETRIC_ALGS.includes(alg)) {
        return (await jwtVerify(token, jwks, { ...common, algorithms: ASYMMETRIC_ALGS })).payload;
      }
    } catch {
      throw unauthenticated('The dashboard token is invalid or expired.');
    }
    throw unauthenticated('The dashboard token is signed with an algorithm this gateway does not accept.');
  }

  /** The bearer API key's environment (from its prefix) and hash; 401 when it is not an API key. */
  function presentedKey(authorization: string | string[] | undefined): { environment: Environment; hash: string } {
    const token = bearerToken(authorization);
    const environment = apiKeyEnvironment(token);
    if (!environment) throw unauthenticated('A valid API key is required.');
    return { environment, hash: hashApiKey(token) };
  }

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
    const row = await findKeyByHash.first(db, { hash });
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
        keyId: row.keyId,
        environment,
        scopes: parseStringArray(row.scopes),
        application: {
          id: row.applicationId,
          name: row.applicationName,
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
      const params: KeyCredentialParams = {
        credentialHash: hash,
        credentialKeyId: row.keyId,
        credentialEnvironment: row.environment,
        credentialScopes: row.scopes,
        credentialNow: now,
        credentialApplicationId: row.applicationId,
        credentialApplicationName: row.applicationName,
        credentialWorkspaceId: row.workspace_id,
        credentialFeatures: row.features,
        credentialUniverses: row.allowed_universe_ids,
      };
      return { actor, reused: { actor, credential: { holds: keyCredentialHolds, params } } };
    },

    async user(authorization, workspaceSelector) {
      const token = bearerToken(authorization);
      if (isApiKeyFormat(token) || token.startsWith('wsk_')) {
        throw unauthenticated('API keys are not accepted here; use a dashboard user token.');
      }
      const payload = await verifyJwt(token);
      const userId = payload.sub;
      if (typeof userId !== 'string' || userId === '' || userId.includes('\u0000')) {
        throw unauthenticated('The dashboard token has no usable subject.');
      }
      const rows = await db
        .selectFrom('members')
        .select(['workspace_id', 'permissions'])
        .where('user_id', '=', userId)
        .execute();
      const memberships = new Map<string, ReadonlySet<string>>(
        rows.map((r) => [r.workspace_id, new Set(parseStringArray(r.permissions))]),
      );
      let selectedWorkspaceId: string | null = null;
      if (workspaceSelector !== undefined) {
        if (!isUuid(workspaceSelector)) {
          throw new AppError('validation_failed', 'X-Service-Workspace-Id must be a UUID.', {
            issues: [{ path: 'headers.x-service-workspace-id', message: 'must be a UUID' }],
          });
        }
        const selected = workspaceSelector.toLowerCase();
        if (!memberships.has(selected)) {
          throw new AppError('workspace_access_denied', 'You are not a member of the selected workspace.');
        }
        selectedWorkspaceId = selected;
      }
      return { kind: 'user', userId, memberships, selectedWorkspaceId };
    },
  };
}
