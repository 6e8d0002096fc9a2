import type { Kysely } from 'kysely';

/**
 * Drops `events_workspace_created` (workspace, created): no statement reads the journal's events by workspace.
 * Retention reads them by age (`events_created`), a submission's history joins them to its commands by
 * `events_command`, and erasure searches their payloads. Every intake, review decision and notice operation
 * wrote to it all the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_workspace_created').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('events_workspace_created').on('events').columns(['workspace_id', 'created_at']).execute();
}
