import { sql, type Kysely } from 'kysely';

/**
 * Retention (docs/OPERATING.md, "Retention"): the prune deletes records older than RETENTION_DAYS, oldest first,
 * in small batches. Each table it prunes gets an index on the age it is pruned by, so a batch reads only the
 * rows it deletes instead of scanning the table:
 * - `commands_created`, `events_created`, `webhook_events_created`: by `created_at`;
 * - `webhook_attempts_started`: by `started_at`;
 * - `webhook_deliveries_finished`: finished deliveries (never a pending one) by `updated_at`, when they were
 *   delivered or given up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('commands_created').on('commands').column('created_at').execute();
  await db.schema.createIndex('events_created').on('events').column('created_at').execute();
  await db.schema.createIndex('webhook_events_created').on('webhook_events').column('created_at').execute();
  await db.schema.createIndex('webhook_attempts_started').on('webhook_attempts').column('started_at').execute();
  await db.schema
    .createIndex('webhook_deliveries_finished')
    .on('webhook_deliveries')
    .column('updated_at')
    .where(sql.ref('status'), '<>', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'webhook_deliveries_finished',
    'webhook_attempts_started',
    'webhook_events_created',
    'events_created',
    'commands_created',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
}
