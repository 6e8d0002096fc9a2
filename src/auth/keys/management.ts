import { ENVIRONMENTS, SCOPES, type Environment, type Scope } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Db, Executor } from '../../db/types.ts';
import { newId } from '../../shared/ids.ts';
import { generateApiKey, hashApiKey } from './api-key.ts';
import { findApplication, findKey, insertKey, listKeys, revokeKey, setKeyExpiry, type KeyRow } from './repository.ts';

/** Scopes a key gets when none are named: every scope an application key can hold. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES;

/** How long a rotated key keeps working, unless told otherwise: a day, time to roll the new one out. */
export const DEFAULT_GRACE_SECONDS = 86_400;
export const MAX_GRACE_SECONDS = 30 * 86_400;

/** A refused key operation: an unknown id, a bad argument, a key in the wrong state. Nothing was changed. */
export class KeyManagementError extends Error {
  override name = 'KeyManagementError';
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

/** A key as operators see it: never its secret, never its hash. */
export interface KeyView {
  readonly id: string;
  readonly applicationId: string;
  readonly workspaceId: string;
  readonly environment: Environment;
  readonly scopes: Scope[];
  readonly status: KeyStatus;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

/** A key just created: the only time its secret is shown. */
export interface CreatedKey extends KeyView {
  readonly secret: string;
}

export interface CreateKeyInput {
  readonly applicationId: string;
  readonly environment: string;
  readonly scopes?: readonly string[];
}

export interface KeyManagementDeps {
  readonly db: Db;
  readonly clock: Clock;
}

const iso = (ms: number) => new Date(ms).toISOString();

function checkEnvironment(value: string): Environment {
  if (!(ENVIRONMENTS as readonly string[]).includes(value)) {
    throw new KeyManagementError(`environment must be one of ${ENVIRONMENTS.join(', ')}, got "${value}"`);
  }
  return value as Environment;
}

function checkScopes(values: readonly string[] | undefined): Scope[] {
  if (values === undefined || values.length === 0) return [...DEFAULT_SCOPES];
  const unknown = values.filter((v) => !(SCOPES as readonly string[]).includes(v));
  if (unknown.length > 0) {
    throw new KeyManagementError(`unknown scope ${unknown.join(', ')}; scopes are ${SCOPES.join(', ')}`);
  }
  // In the canonical order, once each.
  return SCOPES.filter((scope) => values.includes(scope));
}

function parseScopes(json: string): Scope[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? SCOPES.filter((scope) => value.includes(scope)) : [];
}

function view(row: KeyRow, now: number): KeyView {
  const status: KeyStatus =
    row.revoked === 1 ? 'revoked' : row.expires_at !== null && row.expires_at <= now ? 'expired' : 'active';
  return {
    id: row.id,
    applicationId: row.application_id,
    workspaceId: row.workspace_id,
    environment: row.environment,
    scopes: parseScopes(row.scopes),
    status,
    createdAt: iso(row.created_at),
    expiresAt: row.expires_at === null ? null : iso(row.expires_at),
  };
}

async function existingKey(db: Executor, keyId: string): Promise<KeyRow> {
  const row = await findKey(db, keyId);
  if (!row) throw new KeyManagementError(`no API key has the id ${keyId}`);
  return row;
}

async function existingApplication(db: Executor, applicationId: string) {
  const row = await findApplication(db, applicationId);
  if (!row) throw new KeyManagementError(`no application has the id ${applicationId}`);
  return { id: row.id, workspaceId: row.workspace_id };
}

async function createKey(
  db: Executor,
  application: { readonly id: string; readonly workspaceId: string },
  environment: Environment,
  scopes: Scope[],
  now: number,
): Promise<CreatedKey> {
  const id = newId();
  const secret = generateApiKey(environment);
  await insertKey(db, {
    id,
    application_id: application.id,
    environment,
    key_hash: hashApiKey(secret),
    scopes: JSON.stringify(scopes),
    revoked: 0,
    expires_at: null,
    created_at: now,
  });
  return {
    id,
    applicationId: application.id,
    workspaceId: application.workspaceId,
    environment,
    scopes,
    status: 'active',
    createdAt: iso(now),
    expiresAt: null,
    secret,
  };
}

/** Creating, listing, revoking and rotating API keys; each operation is one transaction. */
export function createKeyManagement({ db, clock }: KeyManagementDeps) {
  return {
    /** A new key for the application; the result carries its secret, which is stored only as a hash. */
    async create(input: CreateKeyInput): Promise<CreatedKey> {
      const environment = checkEnvironment(input.environment);
      const scopes = checkScopes(input.scopes);
      return db.transaction().execute(async (trx) => {
        const application = await existingApplication(trx, input.applicationId);
        return createKey(trx, application, environment, scopes, clock.now());
      });
    },

    /** Every key (of one application, when named), oldest first. */
    async list(filter: { readonly applicationId?: string } = {}): Promise<KeyView[]> {
      return db.transaction().execute(async (trx) => {
        if (filter.applicationId !== undefined) await existingApplication(trx, filter.applicationId);
        const rows = await listKeys(trx, filter);
        const now = clock.now();
        return rows.map((row) => view(row, now));
      });
    },

    /** Revokes the key at once (revoking a revoked key changes nothing). */
    async revoke(keyId: string): Promise<KeyView> {
      return db.transaction().execute(async (trx) => {
        await existingKey(trx, keyId);
        await revokeKey(trx, keyId);
        return view(await existingKey(trx, keyId), clock.now());
      });
    },

    /**
     * A new key with the same application, environment and scopes; the old one keeps working for the grace period
     * (never longer than it would have anyway), so clients can switch over without an outage.
     */
    async rotate(keyId: string, graceSeconds = DEFAULT_GRACE_SECONDS): Promise<{ key: CreatedKey; previous: KeyView }> {
      if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_GRACE_SECONDS) {
        throw new KeyManagementError(`grace seconds must be an integer from 0 to ${MAX_GRACE_SECONDS}`);
      }
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const old = await existingKey(trx, keyId);
        const oldView = view(old, now);
        if (oldView.status !== 'active') throw new KeyManagementError(`API key ${keyId} is ${oldView.status}: nothing to rotate`);
        const graceEnd = now + graceSeconds * 1000;
        const expiresAt = old.expires_at === null ? graceEnd : Math.min(old.expires_at, graceEnd);
        await setKeyExpiry(trx, keyId, expiresAt);
        const key = await createKey(
          trx,
          { id: old.application_id, workspaceId: old.workspace_id },
          oldView.environment,
          oldView.scopes,
          now,
        );
        return { key, previous: view(await existingKey(trx, keyId), now) };
      });
    },
  };
}
