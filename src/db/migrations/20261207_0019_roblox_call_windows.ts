import type { Kysely } from 'kysely';

/**
 * The Open Cloud call limit shared by every instance on the database (docs/ROBLOX.md, "The call limit"):
 * `roblox_call_windows` holds, per API key, the times of the calls taken in the last window, as a JSON list. A row
 * is keyed by the SHA-256 of the key (hex), never the key itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roblox_call_windows')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('calls', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('roblox_call_windows').execute();
}
