import { sql, type Kysely } from 'kysely';

/**
 * Drops the index of active shifts by `last_seen_at`. Every heartbeat moves `last_seen_at`, so with that index
 * each heartbeat rewrote an entry in it and, on PostgreSQL, could never be a heap-only (HOT) update: it added an
 * entry to every index of the table. Without it a heartbeat changes no indexed column. The timeout sweep, its
 * only user, now reads the active shifts through another partial index of active shifts, which is small (active
 * shifts only) and read once per sweep interval rather than once per heartbeat.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('shifts_active_seen').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('shifts_active_seen')
    .on('shifts')
    .column('last_seen_at')
    .where(sql.ref('status'), '=', 'active')
    .execute();
}
