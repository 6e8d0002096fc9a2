/** The API keys' and their applications' rows, as key management (management.ts) reads and writes them. */
import type { Environment } from '../../shared/actor.ts';
import type { Insertable } from 'kysely';
import type { ApiKeyTable, Executor } from '../../db/types.ts';

/** A key with its application's workspace: what operators see of it (never its hash). */
export interface KeyRow {
  readonly id: string;
  readonly application_id: string;
  readonly workspace_id: string;
  readonly environment: Environment;
  readonly scopes: string;
  readonly revoked: number;
  readonly expires_at: number | null;
  readonly created_at: number;
}

const selectKeys = (db: Executor) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('applications as a', 'a.id', 'k.application_id')
    .select(['k.id', 'k.application_id', 'a.workspace_id', 'k.environment', 'k.scopes', 'k.revoked', 'k.expires_at', 'k.created_at']);

export async function findKey(db: Executor, keyId: string): Promise<KeyRow | undefined> {
  return selectKeys(db).where('k.id', '=', keyId).executeTakeFirst();
}

/** Every key (of one application, when named), oldest first. */
export async function listKeys(db: Executor, filter: { readonly applicationId?: string }): Promise<KeyRow[]> {
  let query = selectKeys(db);
  if (filter.applicationId !== undefined) query = query.where('k.application_id', '=', filter.applicationId);
  return query.orderBy('k.created_at').orderBy('k.id').execute();
}

export async function findApplication(
  db: Executor,
  applicationId: string,
): Promise<{ readonly id: string; readonly workspace_id: string } | undefined> {
  return db.selectFrom('applications').select(['id', 'workspace_id']).where('id', '=', applicationId).executeTakeFirst();
}

export async function insertKey(db: Executor, row: Insertable<ApiKeyTable>): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function revokeKey(db: Executor, keyId: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked: 1 }).where('id', '=', keyId).execute();
}

export async function setKeyExpiry(db: Executor, keyId: string, expiresAt: number): Promise<void> {
  await db.updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', keyId).execute();
}
