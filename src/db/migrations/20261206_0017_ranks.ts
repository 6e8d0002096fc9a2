import type { Kysely } from 'kysely';

/**
 * Ranks that follow decisions into the Roblox group (docs/ROBLOX.md):
 * - `roblox_settings`: a workspace's group and the secrets the gateway keeps for its own use (the Open Cloud API
 *   key, the erasure webhook's secret), written by provisioning and never shown.
 * - `ranks`: the group's roles in rank order, named as staff `rank` values (`rank_order` unique in a workspace).
 * - `application_forms.entry_rank`: the rank an acceptance that creates a staff profile gives it.
 * - `rank_changes`: every change of a staff member's rank made through the API or an acceptance, and its sync to
 *   the group: a durable job with the webhook outbox's columns (`next_attempt_at`, `claimed_until`,
 *   `claimed_by`, `expires_at`) and discipline (docs/ARCHITECTURE.md, "Durable jobs").
 * - `roblox_erasure_requests`: each right-to-erasure notification handled, by notification id (never the user id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roblox_settings')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('api_key', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ranks')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text')
    .addColumn('rank_order', 'integer', (c) => c.notNull())
    .addColumn('assignable', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ranks_pkey', ['workspace_id', 'name'])
    .addUniqueConstraint('ranks_order', ['workspace_id', 'rank_order'])
    .execute();
  await db.schema.alterTable('application_forms').addColumn('entry_rank', 'text').execute();
  await db.schema
    .createTable('rank_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff.id'))
    .addColumn('from_rank', 'text')
    .addColumn('to_rank', 'text', (c) => c.notNull())
    .addColumn('from_role_id', 'text')
    .addColumn('to_role_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sync_status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('applied_at', 'bigint')
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('claimed_by', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rank_changes_staff').on('rank_changes').columns(['staff_id', 'id']).execute();
  await db.schema
    .createIndex('rank_changes_pending')
    .on('rank_changes')
    .columns(['sync_status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createTable('roblox_erasure_requests')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('notification_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('counts', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addPrimaryKeyConstraint('roblox_erasure_requests_pkey', ['workspace_id', 'notification_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('roblox_erasure_requests').execute();
  await db.schema.dropTable('rank_changes').execute();
  await db.schema.alterTable('application_forms').dropColumn('entry_rank').execute();
  await db.schema.dropTable('ranks').execute();
  await db.schema.dropTable('roblox_settings').execute();
}
