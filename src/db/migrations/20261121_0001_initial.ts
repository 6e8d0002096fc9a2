import { sql, type Kysely } from 'kysely';

// Dialect-neutral: TEXT ids and JSON, BIGINT epoch-millisecond instants, INTEGER 0/1 booleans.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('create_staff_profile_on_accept', 'integer', (c) => c.notNull())
    .addColumn('weekly_required_minutes', 'integer')
    .addColumn('chat_guild_id', 'text')
    .addColumn('chat_status', 'text')
    .addColumn('chat_connected_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('departments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('weekly_required_minutes', 'integer')
    .execute();
  await db.schema.createIndex('departments_workspace').on('departments').column('workspace_id').execute();

  await db.schema
    .createTable('members')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('members_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').column('user_id').execute();

  await db.schema
    .createTable('staff')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('game_user_id', 'text', (c) => c.notNull())
    .addColumn('game_username', 'text', (c) => c.notNull())
    .addColumn('chat_user_id', 'text')
    .addColumn('department_id', 'text', (c) => c.references('departments.id'))
    .addColumn('rank', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('weekly_required_minutes', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('staff_workspace_game_user')
    .on('staff')
    .columns(['workspace_id', 'game_user_id'])
    .unique()
    .execute();
  await db.schema.createIndex('staff_workspace_chat_user').on('staff').columns(['workspace_id', 'chat_user_id']).execute();
  await db.schema.createIndex('staff_workspace_department').on('staff').columns(['workspace_id', 'department_id']).execute();

  await db.schema
    .createTable('inactivity_notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff.id'))
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inactivity_notices_staff')
    .on('inactivity_notices')
    .columns(['staff_id', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('inactivity_notices_workspace')
    .on('inactivity_notices')
    .columns(['workspace_id', 'starts_at'])
    .execute();

  await db.schema
    .createTable('applications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('approved', 'integer', (c) => c.notNull())
    .addColumn('allowed_universe_ids', 'text', (c) => c.notNull())
    .addColumn('features', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('applications_workspace').on('applications').column('workspace_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_application').on('api_keys').column('application_id').execute();

  await db.schema
    .createTable('submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision')
    .addColumn('reviewer_notes', 'text')
    .addColumn('applicant', 'text', (c) => c.notNull())
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_at', 'bigint')
    .addColumn('accepted_at', 'bigint')
    .addColumn('rejected_at', 'bigint')
    .addColumn('staff_profile_id', 'text', (c) => c.references('staff.id'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('submissions_workspace_status')
    .on('submissions')
    .columns(['workspace_id', 'status'])
    .execute();

  await db.schema
    .createTable('commands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.references('submissions.id'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('commands_submission').on('commands').columns(['submission_id', 'created_at']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('command_id', 'text', (c) => c.notNull().references('commands.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_workspace_created').on('events').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('events_command').on('events').column('command_id').execute();

  await db.schema
    .createTable('shifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff.id'))
    .addColumn('universe_id', 'text', (c) => c.notNull())
    .addColumn('place_id', 'text', (c) => c.notNull())
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('end_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // At most one active shift per staff member, application and environment, across every gateway instance.
  await db.schema
    .createIndex('shifts_one_active')
    .on('shifts')
    .columns(['application_id', 'environment', 'staff_id'])
    .unique()
    .where(sql.ref('status'), '=', 'active')
    .execute();
  // Active list (workspace-wide, keyset on startedAt, id) and the timeout sweep.
  await db.schema
    .createIndex('shifts_active_by_start')
    .on('shifts')
    .columns(['workspace_id', 'environment', 'started_at', 'id'])
    .where(sql.ref('status'), '=', 'active')
    .execute();
  await db.schema.createIndex('shifts_active_seen').on('shifts').column('last_seen_at').where(sql.ref('status'), '=', 'active').execute();
  // Period reports: completed shifts overlapping [start, end) of one workspace or one staff member.
  await db.schema
    .createIndex('shifts_completed_workspace')
    .on('shifts')
    .columns(['workspace_id', 'environment', 'ended_at', 'started_at', 'staff_id'])
    .where(sql.ref('status'), '=', 'completed')
    .execute();
  await db.schema
    .createIndex('shifts_staff_ended')
    .on('shifts')
    .columns(['staff_id', 'environment', 'ended_at', 'started_at'])
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['scope', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_records_created').on('idempotency_records').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'idempotency_records',
    'shifts',
    'events',
    'commands',
    'submissions',
    'api_keys',
    'applications',
    'inactivity_notices',
    'staff',
    'members',
    'departments',
    'workspaces',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
