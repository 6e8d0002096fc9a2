import { sql, type Kysely } from 'kysely';

/**
 * Applications end to end (docs/API.md, "Applications"; docs/APPLICATIONS.md):
 * - `application_forms`: a workspace's forms, from the provisioning document. `questions` holds the current
 *   questions as JSON, every default filled in; a submission keeps the labels it was answered under in its own
 *   `answers`, so replacing the questions never rewrites an old application.
 * - `submissions` gain `form_id` (null for a provisioned submission without a form; no foreign key, so SQLite
 *   can drop the column again), `environment` (the intake
 *   key's; provisioned ones are `live`) and `game_user_id` (the applicant's, copied out of `applicant` so the
 *   database can index it).
 * - `submissions_one_pending`: at most one `submitted` or `under_review` submission per form, environment and
 *   applicant, enforced by the database, so two racing intakes create one.
 * - `submissions_queue_pending`: the reviewers' default queue (the pending submissions, a few among many decided),
 *   oldest first, as an ordered walk of the pending rows only. A partial index: a query uses it when its text
 *   states the same condition with literal statuses (queue/repository.ts). `submissions_queue`: the queue of other
 *   statuses, an ordered walk.
 * - `submissions_applicant`: an applicant's own submissions; `submissions_applicant_form`: theirs to one form (the
 *   intake's pending and cooldown checks; the partial unique index is not usable for a query whose statuses are
 *   bound values).
 * - `erasures`: that an erasure ran, when, and how many rows it changed; never whose data it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('application_forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('department_id', 'text')
    .addColumn('cooldown_days', 'integer', (c) => c.notNull())
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('application_forms_workspace').on('application_forms').columns(['workspace_id', 'name', 'id']).execute();

  await db.schema.alterTable('submissions').addColumn('form_id', 'text').execute();
  await db.schema.alterTable('submissions').addColumn('environment', 'text', (c) => c.notNull().defaultTo('live')).execute();
  await db.schema.alterTable('submissions').addColumn('game_user_id', 'text').execute();

  const rows = await sql<{ id: string; applicant: string }>`select id, applicant from submissions`.execute(db);
  for (const row of rows.rows) {
    const applicant = JSON.parse(row.applicant) as { gameUserId?: unknown };
    const gameUserId = applicant.gameUserId === undefined || applicant.gameUserId === null ? null : String(applicant.gameUserId);
    await sql`update submissions set game_user_id = ${gameUserId} where id = ${row.id}`.execute(db);
  }

  await db.schema
    .createIndex('submissions_one_pending')
    .on('submissions')
    .columns(['form_id', 'environment', 'game_user_id'])
    .unique()
    .where(sql<boolean>`status in ('submitted', 'under_review') and form_id is not null`)
    .execute();
  await db.schema
    .createIndex('submissions_queue')
    .on('submissions')
    .columns(['workspace_id', 'environment', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('submissions_queue_pending')
    .on('submissions')
    .columns(['workspace_id', 'environment', 'created_at', 'id'])
    .where(sql<boolean>`status in ('submitted', 'under_review')`)
    .execute();
  await db.schema
    .createIndex('submissions_applicant_form')
    .on('submissions')
    .columns(['form_id', 'environment', 'game_user_id'])
    .execute();
  await db.schema
    .createIndex('submissions_applicant')
    .on('submissions')
    .columns(['workspace_id', 'environment', 'game_user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('erasures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ran_at', 'bigint', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('erasures').execute();
  await db.schema.dropIndex('submissions_applicant').execute();
  await db.schema.dropIndex('submissions_applicant_form').execute();
  await db.schema.dropIndex('submissions_queue_pending').execute();
  await db.schema.dropIndex('submissions_queue').execute();
  await db.schema.dropIndex('submissions_one_pending').execute();
  await db.schema.alterTable('submissions').dropColumn('game_user_id').execute();
  await db.schema.alterTable('submissions').dropColumn('environment').execute();
  await db.schema.alterTable('submissions').dropColumn('form_id').execute();
  await db.schema.dropTable('application_forms').execute();
}
