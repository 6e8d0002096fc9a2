/**
 * The statements other modules run on the `api_keys` table, which this module owns (docs/DATA.md): the keys a
 * provisioning document names.
 */
import type { Insertable, Updateable } from 'kysely';
import type { ApiKeyTable, Executor } from '../../db/types.ts';

/** Inserts the key unless its id exists; whether it did. */
export async function insertKeyUnlessExists(db: Executor, row: Insertable<ApiKeyTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('api_keys')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateKey(
  db: Executor,
  keyId: string,
  settings: Pick<Updateable<ApiKeyTable>, 'scopes' | 'revoked' | 'expires_at'>,
): Promise<void> {
  await db.updateTable('api_keys').set(settings).where('id', '=', keyId).execute();
}
