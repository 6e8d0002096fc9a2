import type { Kysely } from 'kysely';

/**
 * Drops the two indexes of `inactivity_notices` that the ones of migration 0009 made redundant. Every read of the
 * notices names the environment with the staff member or the workspace (`inactivity_notices_requests`,
 * `inactivity_notices_list`), and what names only a staff member (erasure, the foreign key's check when a staff row
 * goes) or only a workspace (the workspace's foreign key) is served by the same indexes' first column. So
 * `inactivity_notices_staff` (`staff_id`, `starts_at`) and `inactivity_notices_workspace` (`workspace_id`,
 * `starts_at`) were only written, on every notice asked for or provisioned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('inactivity_notices_staff').execute();
  await db.schema.dropIndex('inactivity_notices_workspace').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('inactivity_notices_staff').on('inactivity_notices').columns(['staff_id', 'starts_at']).execute();
  await db.schema
    .createIndex('inactivity_notices_workspace')
    .on('inactivity_notices')
    .columns(['workspace_id', 'starts_at'])
    .execute();
}
