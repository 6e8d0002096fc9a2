import { sql, type Kysely } from 'kysely';

/**
 * `gateway_signing_key`: the key the gateway signs its own dashboard tokens with (src/auth/keys/dashboard-token.ts),
 * generated on first use when none is configured. One row at most: its `id` is always 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('gateway_signing_key')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('gateway_signing_key').execute();
}
