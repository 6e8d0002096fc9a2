import type { Kysely } from 'kysely';

/**
 * `workspaces.activity_version` counts the writes that change what the workspace's reports rank: completed
 * shifts recorded by a stop, staff created on accept, and provisioning. Report caches are valid only while it
 * is unchanged, which makes them exact across processes and gateway instances sharing the database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('workspaces')
    .addColumn('activity_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('activity_version').execute();
}
