import type { Kysely } from 'kysely';

/**
 * A staff member's notices of one environment by their end, instead of by their start. Every read of them asks
 * which overlap a span (`starts_at < end and ends_at > start`): the overlap check of a request and of an
 * approval, and the approved notices a summary or a leaderboard counts. By start, the index bounds only
 * `starts_at < end`, which every earlier notice meets, so the check read the staff member's whole history. By
 * end, it bounds `ends_at > start`, which only the notices not yet over when the span starts meet: the few a new
 * notice or a current week can overlap. The staff member's own list (latest start first, at most 20) sorts
 * their notices, which the index still finds by its first two columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('inactivity_notices_staff_end')
    .on('inactivity_notices')
    .columns(['staff_id', 'environment', 'ends_at'])
    .execute();
  await db.schema.dropIndex('inactivity_notices_requests').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('inactivity_notices_requests')
    .on('inactivity_notices')
    .columns(['staff_id', 'environment', 'starts_at'])
    .execute();
  await db.schema.dropIndex('inactivity_notices_staff_end').execute();
}
