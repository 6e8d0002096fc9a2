import { sql, type Kysely } from 'kysely';

/**
 * Inactivity notices asked for by staff and decided by managers (docs/API.md, "Inactivity notices"):
 * - `inactivity_notices` gain `environment` (the asking key's; provisioned notices are `live`), `created_at`
 *   (when it was asked for, or first provisioned), `decided_at`, `decision_note` and `decided_by` (the deciding
 *   member's user id), set by an approval or a denial, and `origin` (`provisioned` or `api`): a provisioning
 *   document rewrites only the notices it wrote, never one asked for through the API.
 *   Existing rows are provisioned ones: `live`, `origin` `provisioned`, and `created_at` the migration's time
 *   (when they were first written is not known; their `startsAt` may lie in the future).
 * - `inactivity_notices_requests`: a staff member's notices of one environment by start, for the overlap check
 *   and the staff member's own list; `inactivity_notices_list`: the managers' list of a workspace and
 *   environment, ordered by start then id.
 * - `workspaces.max_notice_days`: the longest notice that may be asked for, in days (settings, default 30).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('inactivity_notices').addColumn('environment', 'text', (c) => c.notNull().defaultTo('live')).execute();
  await db.schema.alterTable('inactivity_notices').addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('inactivity_notices').addColumn('decided_at', 'bigint').execute();
  await db.schema.alterTable('inactivity_notices').addColumn('decision_note', 'text').execute();
  await db.schema.alterTable('inactivity_notices').addColumn('decided_by', 'text').execute();
  await db.schema
    .alterTable('inactivity_notices')
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo('provisioned'))
    .execute();
  await sql`update inactivity_notices set created_at = ${Date.now()}`.execute(db);
  await db.schema
    .createIndex('inactivity_notices_requests')
    .on('inactivity_notices')
    .columns(['staff_id', 'environment', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('inactivity_notices_list')
    .on('inactivity_notices')
    .columns(['workspace_id', 'environment', 'starts_at', 'id'])
    .execute();

  await db.schema.alterTable('workspaces').addColumn('max_notice_days', 'integer', (c) => c.notNull().defaultTo(30)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('max_notice_days').execute();
  await db.schema.dropIndex('inactivity_notices_list').execute();
  await db.schema.dropIndex('inactivity_notices_requests').execute();
  for (const column of ['origin', 'decided_by', 'decision_note', 'decided_at', 'created_at', 'environment']) {
    await db.schema.alterTable('inactivity_notices').dropColumn(column).execute();
  }
}
