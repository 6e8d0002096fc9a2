import type { Insertable } from 'kysely';
import type { Database, Executor } from '../db/types.ts';
import { upsertBatch, type DocumentTable, type Upsert } from './repository.ts';

const WORKSPACE_SETTINGS = [
  'name',
  'slug',
  'timezone',
  'settings',
  'create_staff_profile_on_accept',
  'weekly_required_minutes',
  'max_notice_days',
  'chat_guild_id',
  'chat_status',
  'chat_connected_at',
] as const;

const STAFF_SETTINGS = [
  'display_name',
  'game_user_id',
  'game_username',
  'chat_user_id',
  'department_id',
  'rank',
  'status',
  'weekly_required_minutes',
] as const;

// Configuration is overwritten from the document; workspaces and staff only when something differs, so
// re-applying leaves `updated_at` alone and counts no change. Submissions and shifts are records, not
// configuration: inserted when absent, never overwritten.
export const WORKSPACES: Upsert<'workspaces'> = {
  table: 'workspaces',
  conflict: ['id'],
  update: [...WORKSPACE_SETTINGS, 'updated_at'],
  onlyWhenChanged: WORKSPACE_SETTINGS,
};
export const DEPARTMENTS: Upsert<'departments'> = {
  table: 'departments',
  conflict: ['id'],
  update: ['name', 'weekly_required_minutes'],
};
export const MEMBERS: Upsert<'members'> = {
  table: 'members',
  conflict: ['workspace_id', 'user_id'],
  update: ['permissions', 'chat_user_id'],
};
export const STAFF: Upsert<'staff'> = {
  table: 'staff',
  conflict: ['id'],
  update: STAFF_SETTINGS,
  onlyWhenChanged: STAFF_SETTINGS,
};
const NOTICE_SETTINGS = ['staff_id', 'starts_at', 'ends_at', 'reason', 'status', 'decided_at', 'decision_note', 'decided_by'] as const;
// A document rewrites the notices it wrote (a provisioned notice is undecided: its decision columns null), never one
// a staff member asked for through the API.
export const NOTICES: Upsert<'inactivity_notices'> = {
  table: 'inactivity_notices',
  conflict: ['id'],
  update: NOTICE_SETTINGS,
  onlyWhenChanged: NOTICE_SETTINGS,
  onlyWhere: { column: 'origin', equals: 'provisioned' },
};
export const APPLICATIONS: Upsert<'applications'> = {
  table: 'applications',
  conflict: ['id'],
  update: ['name', 'approved', 'allowed_universe_ids', 'features'],
};
const FORM_SETTINGS = ['name', 'slug', 'status', 'description', 'department_id', 'cooldown_days', 'questions', 'entry_rank'] as const;
// A later document replaces a form's questions; answers already given keep the labels they were given under.
export const FORMS: Upsert<'application_forms'> = {
  table: 'application_forms',
  conflict: ['id'],
  update: [...FORM_SETTINGS, 'updated_at'],
  onlyWhenChanged: FORM_SETTINGS,
};
export const SUBMISSIONS: Upsert<'submissions'> = { table: 'submissions', conflict: ['id'], update: [] };


// Rows per multi-row statement: at most 15 columns each, well under both stores' parameter limits.
const BATCH = 100;

export function batches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(rows.slice(i, i + BATCH));
  return out;
}

/** Upserts the rows in batches (repository.ts, upsertBatch); returns how many rows were inserted or changed. */
export async function upsertRows<T extends DocumentTable>(
  db: Executor,
  upsert: Upsert<T>,
  rows: readonly Insertable<Database[T]>[],
): Promise<number> {
  let changed = 0;
  for (const batch of batches(rows)) changed += await upsertBatch(db, upsert, batch);
  return changed;
}
