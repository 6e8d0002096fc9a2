import type { Kysely } from 'kysely';

/**
 * Which staff members each move of a workspace's `activity_version` changed: a leaderboard computed
 * at one version is brought to a later one by recomputing only the staff these rows name, instead of the whole
 * workspace. Written in the transaction that moves the version (src/features/activity/totals/service.ts), so a committed
 * version has its rows committed with it. A version without rows (staff created, provisioning, a rebuild) means
 * "anything may have changed": readers then compute in full. Old versions are pruned by the writers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('activity_changes')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('staff_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('activity_changes_pk', ['workspace_id', 'version', 'staff_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('activity_changes').execute();
}
