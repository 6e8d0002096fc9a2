/**
 * Provisioning's queries: the reads of the rows a document meets (snapshot.ts) and the writes that make the
 * store match it (write.ts, webhooks.ts), all run in the one transaction of applyProvisioning. Reads by id take at
 * most a chunk of ids (snapshot.ts), writes of rows at most a batch (db/upsert.ts).
 */
import type { Insertable, Updateable } from 'kysely';
import { PENDING_STATUSES } from '../features/applications/rules.ts';
import type { Database, Executor, WebhookEndpointTable } from '../db/types.ts';
import { upsertRows, type Upsert } from '../db/upsert.ts';

/** Tables whose rows belong to a workspace by their `workspace_id`. */
export type OwnedTable = 'departments' | 'inactivity_notices' | 'applications' | 'application_forms' | 'submissions' | 'shifts';

// ---- Reads: what the document meets ----

export async function findWorkspacesById(db: Executor, ids: readonly string[]) {
  return db.selectFrom('workspaces').select(['id', 'slug', 'timezone']).where('id', 'in', [...ids]).execute();
}

export async function findWorkspacesBySlug(db: Executor, slugs: readonly string[]) {
  return db.selectFrom('workspaces').select(['id', 'slug']).where('slug', 'in', [...slugs]).execute();
}

/** The owning workspace of each row of `table` with one of the ids. */
export async function findOwners(db: Executor, table: OwnedTable, ids: readonly string[]) {
  return db.selectFrom(table).select(['id', 'workspace_id']).where('id', 'in', [...ids]).execute();
}

export async function findStaffById(db: Executor, ids: readonly string[]) {
  return db.selectFrom('staff').select(['id', 'workspace_id', 'game_user_id']).where('id', 'in', [...ids]).execute();
}

export async function findStaffByGameUsers(db: Executor, workspaceId: string, gameUserIds: readonly string[]) {
  return db
    .selectFrom('staff')
    .select(['id', 'workspace_id', 'game_user_id'])
    .where('workspace_id', '=', workspaceId)
    .where('game_user_id', 'in', [...gameUserIds])
    .execute();
}

/** Members of the workspace holding one of the chat user ids. */
export async function findMembersByChatUsers(db: Executor, workspaceId: string, chatUserIds: readonly string[]) {
  return db
    .selectFrom('members')
    .select(['user_id', 'chat_user_id'])
    .where('workspace_id', '=', workspaceId)
    .where('chat_user_id', 'in', [...chatUserIds])
    .execute();
}

export async function findKeysById(db: Executor, ids: readonly string[]) {
  return db.selectFrom('api_keys').select(['id', 'application_id', 'environment', 'key_hash']).where('id', 'in', [...ids]).execute();
}

export async function findKeysByHash(db: Executor, hashes: readonly string[]) {
  return db.selectFrom('api_keys').select(['id', 'key_hash']).where('key_hash', 'in', [...hashes]).execute();
}

/** Live submissions awaiting review to the forms (provisioned submissions are live). */
export async function findPendingSubmissions(db: Executor, formIds: readonly string[]) {
  return db
    .selectFrom('submissions')
    .select(['id', 'form_id', 'game_user_id'])
    .where('form_id', 'in', [...formIds])
    .where('environment', '=', 'live')
    .where('status', 'in', [...PENDING_STATUSES])
    .execute();
}

export async function findFormQuestions(db: Executor, formIds: readonly string[]) {
  return db.selectFrom('application_forms').select(['id', 'questions']).where('id', 'in', [...formIds]).execute();
}

export async function findEndpointWorkspaces(db: Executor, ids: readonly string[]) {
  return db.selectFrom('webhook_endpoints').select(['id', 'workspace_id']).where('id', 'in', [...ids]).execute();
}

// ---- Writes: the store made to match the document ----
// Provisioning owns the configuration that only a document writes (docs/DATA.md); the other tables a document
// names are written through their owners' upkeep modules.

const DEPARTMENTS: Upsert<'departments'> = { table: 'departments', conflict: ['id'], update: ['name', 'weekly_required_minutes'] };
const MEMBERS: Upsert<'members'> = { table: 'members', conflict: ['workspace_id', 'user_id'], update: ['permissions', 'chat_user_id'] };
const APPLICATIONS: Upsert<'applications'> = {
  table: 'applications',
  conflict: ['id'],
  update: ['name', 'approved', 'allowed_universe_ids', 'features'],
};
const FORM_SETTINGS = ['name', 'slug', 'status', 'description', 'department_id', 'cooldown_days', 'questions', 'entry_rank'] as const;
// A later document replaces a form's questions; answers already given keep the labels they were given under.
const FORMS: Upsert<'application_forms'> = {
  table: 'application_forms',
  conflict: ['id'],
  update: [...FORM_SETTINGS, 'updated_at'],
  onlyWhenChanged: FORM_SETTINGS,
};

/** Each writes a document's rows of its table, returning how many were inserted or changed. */
export const upsertDepartments = (db: Executor, rows: readonly Insertable<Database['departments']>[]) => upsertRows(db, DEPARTMENTS, rows);
export const upsertMembers = (db: Executor, rows: readonly Insertable<Database['members']>[]) => upsertRows(db, MEMBERS, rows);
export const upsertApplications = (db: Executor, rows: readonly Insertable<Database['applications']>[]) =>
  upsertRows(db, APPLICATIONS, rows);
export const upsertForms = (db: Executor, rows: readonly Insertable<Database['application_forms']>[]) => upsertRows(db, FORMS, rows);

export async function insertEndpoint(db: Executor, row: Insertable<WebhookEndpointTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: Executor,
  endpointId: string,
  settings: Pick<Updateable<WebhookEndpointTable>, 'url' | 'events' | 'enabled' | 'updated_at' | 'secret' | 'format'>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(settings).where('id', '=', endpointId).execute();
}
