import { sql, type Kysely } from 'kysely';

/**
 * Removes `in_progress` idempotency records. Earlier versions claimed a key with such a row while its request
 * ran; keys are now held by the database's transaction-scoped advisory lock (PostgreSQL) or in the writing
 * process (SQLite), and every record is a completed result. A row left `in_progress` belonged to a request that
 * never finished (its instance stopped): removing it frees the key, so a retry runs, as it would have once the
 * row's lock expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from idempotency_records where state <> 'completed'`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to restore: the removed rows were abandoned claims.
}
