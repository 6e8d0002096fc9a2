/** The gateway's own signing key row (migration 0010): one row, `id` 1. */
import type { Executor, GatewaySigningKeyTable } from '../../db/types.ts';

export async function findSigningKey(db: Executor): Promise<string | undefined> {
  const row = await db.selectFrom('gateway_signing_key').select('secret').where('id', '=', 1).executeTakeFirst();
  return row?.secret;
}

/** Stores the key unless one is already there (another instance or command was first): the stored one stays. */
export async function insertSigningKeyIfAbsent(db: Executor, row: Omit<GatewaySigningKeyTable, 'id'>): Promise<void> {
  await db
    .insertInto('gateway_signing_key')
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
