import type { Kysely } from 'kysely';

/**
 * Running totals of completed time, so reports read a few rows per staff member instead of summing
 * the period's shifts.
 *
 * `activity_totals`: per workspace, environment, staff member and bucket (`grain` `day`, `week` or `month` of the
 * workspace time zone, `bucket_start` its first instant):
 * - `worked_ms`: milliseconds of completed shifts clipped to the bucket;
 * - `started_shifts`: completed shifts that started inside the bucket;
 * - `carried_shifts`: completed shifts that started before the bucket and end after its start.
 * The shifts overlapping a period that starts at a bucket start are then `started` summed over its buckets plus
 * `carried` of its first bucket: each counted once, however many days it spans.
 *
 * `activity_totals_extent`: per workspace and environment, an upper bound of the longest completed shift (only
 * ever raised, lowered by a rebuild), which bounds the raw-shift reads at the partial edges of a custom range.
 *
 * Both are derived from the shifts and rebuilt from them (the `rebuild-totals` command; the gateway fills them
 * when it applies this migration to a store that already holds shifts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('activity_totals')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('grain', 'text', (c) => c.notNull())
    .addColumn('bucket_start', 'bigint', (c) => c.notNull())
    .addColumn('staff_id', 'text', (c) => c.notNull())
    .addColumn('worked_ms', 'bigint', (c) => c.notNull())
    .addColumn('started_shifts', 'integer', (c) => c.notNull())
    .addColumn('carried_shifts', 'integer', (c) => c.notNull())
    // Leaderboards read one bucket (or a run of day buckets) of the whole workspace: the key's prefix.
    .addPrimaryKeyConstraint('activity_totals_pk', ['workspace_id', 'environment', 'grain', 'bucket_start', 'staff_id'])
    .execute();
  // Summaries and per-staff aggregates read one staff member's buckets.
  await db.schema
    .createIndex('activity_totals_staff')
    .on('activity_totals')
    .columns(['staff_id', 'environment', 'grain', 'bucket_start'])
    .execute();

  await db.schema
    .createTable('activity_totals_extent')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('longest_shift_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('activity_totals_extent_pk', ['workspace_id', 'environment'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('activity_totals_extent').execute();
  await db.schema.dropTable('activity_totals').execute();
}
