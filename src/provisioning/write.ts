import type { Environment, Scope } from '../actor.ts';
import { readQuestions, type Question } from '../features/applications/forms/questions.ts';
import type { Executor } from '../db/types.ts';
import { rankings } from '../features/workspaces/rankings.ts';
import { generateApiKey, hashApiKey } from '../keys/api-key.ts';
import { applyCompletedShifts, rebuildWorkspaceTotals, type CompletedSpan } from '../features/totals/service.ts';
import { instant } from './document.ts';
import {
  applicationRow,
  departmentRow,
  formRow,
  memberRow,
  noticeRow,
  shiftRow,
  staffRow,
  submissionRow,
  workspaceRow,
} from './rows.ts';
import type { ApplicationDocument, KeyDocument, ProvisioningDocument, WorkspaceDocument } from './schema.ts';
import type { Snapshot } from './snapshot.ts';
import { batches, upsertRows, type Upsert } from './upsert.ts';

/** A key this run created. `secret` is present only when this run generated it (never for an imported one). */
export interface ProvisionedKey {
  readonly id: string;
  readonly applicationId: string;
  readonly environment: Environment;
  readonly scopes: Scope[];
  readonly secret?: string;
}

/**
 * A slug or game user id that moves from one row to another within one document would trip the unique index
 * halfway through; the rows giving theirs up take a placeholder first (no real value starts with "~").
 */
async function releaseChangedUniqueValues(db: Executor, document: ProvisioningDocument, snapshot: Snapshot) {
  for (const workspace of document.workspaces) {
    const existing = snapshot.workspaces.get(workspace.id);
    if (existing && existing.slug !== workspace.slug) {
      await db.updateTable('workspaces').set({ slug: `~${workspace.id}` }).where('id', '=', workspace.id).execute();
    }
    for (const staff of workspace.staff ?? []) {
      const row = snapshot.staff.get(staff.id);
      if (row && row.gameUserId !== staff.gameUserId) {
        await db.updateTable('staff').set({ game_user_id: `~${staff.id}` }).where('id', '=', staff.id).execute();
      }
    }
  }
}

const WORKSPACE_SETTINGS = [
  'name',
  'slug',
  'timezone',
  'settings',
  'create_staff_profile_on_accept',
  'weekly_required_minutes',
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
const WORKSPACES: Upsert<'workspaces'> = {
  table: 'workspaces',
  conflict: ['id'],
  update: [...WORKSPACE_SETTINGS, 'updated_at'],
  onlyWhenChanged: WORKSPACE_SETTINGS,
};
const DEPARTMENTS: Upsert<'departments'> = {
  table: 'departments',
  conflict: ['id'],
  update: ['name', 'weekly_required_minutes'],
};
const MEMBERS: Upsert<'members'> = { table: 'members', conflict: ['workspace_id', 'user_id'], update: ['permissions'] };
const STAFF: Upsert<'staff'> = {
  table: 'staff',
  conflict: ['id'],
  update: STAFF_SETTINGS,
  onlyWhenChanged: STAFF_SETTINGS,
};
const NOTICES: Upsert<'inactivity_notices'> = {
  table: 'inactivity_notices',
  conflict: ['id'],
  update: ['staff_id', 'starts_at', 'ends_at', 'reason', 'status'],
};
const APPLICATIONS: Upsert<'applications'> = {
  table: 'applications',
  conflict: ['id'],
  update: ['name', 'approved', 'allowed_universe_ids', 'features'],
};
const FORM_SETTINGS = ['name', 'slug', 'status', 'description', 'department_id', 'cooldown_days', 'questions'] as const;
// A later document replaces a form's questions; answers already given keep the labels they were given under.
const FORMS: Upsert<'application_forms'> = {
  table: 'application_forms',
  conflict: ['id'],
  update: [...FORM_SETTINGS, 'updated_at'],
  onlyWhenChanged: FORM_SETTINGS,
};
const SUBMISSIONS: Upsert<'submissions'> = { table: 'submissions', conflict: ['id'], update: [] };

/** The current questions of the forms the workspace's submissions name (as written by this document). */
async function questionsOfForms(db: Executor, workspace: WorkspaceDocument): Promise<Map<string, Question[]>> {
  const ids = [...new Set((workspace.submissions ?? []).flatMap((s) => (s.formId === undefined ? [] : [s.formId])))];
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('application_forms').select(['id', 'questions']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, readQuestions(row.questions)]));
}

function keySettings(key: KeyDocument) {
  return {
    scopes: JSON.stringify(key.scopes),
    revoked: key.revoked === true ? 1 : 0,
    expires_at: typeof key.expiresAt === 'string' ? instant(key.expiresAt) : null,
  };
}

/**
 * What a document changes on a key that exists: its scopes, and `revoked` and `expiresAt` only when it states them.
 * Left out, they keep what the key has, so applying a routine document again never brings back a key that
 * `keys revoke` revoked, nor makes the key that `keys rotate` replaced valid beyond its grace period.
 */
function existingKeySettings(key: KeyDocument) {
  const { scopes, revoked, expires_at } = keySettings(key);
  return {
    scopes,
    ...(key.revoked !== undefined ? { revoked } : {}),
    ...(key.expiresAt !== undefined ? { expires_at } : {}),
  };
}

/** Inserts the key unless its id exists; returns the secret it was created with, or null when it existed. */
async function createKey(db: Executor, application: ApplicationDocument, key: KeyDocument, now: number) {
  const secret = key.secret ?? generateApiKey(key.environment);
  const inserted = await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      application_id: application.id,
      environment: key.environment,
      key_hash: hashApiKey(secret),
      ...keySettings(key),
      created_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? secret : null;
}

/** New key ids get a key (the secret only ever leaves in the result); existing ones keep theirs. */
async function provisionKeys(db: Executor, workspace: WorkspaceDocument, snapshot: Snapshot, now: number) {
  const created: ProvisionedKey[] = [];
  for (const application of workspace.applications ?? []) {
    for (const key of application.keys) {
      const secret = snapshot.keys.has(key.id) ? null : await createKey(db, application, key, now);
      if (secret === null) {
        await db.updateTable('api_keys').set(existingKeySettings(key)).where('id', '=', key.id).execute();
        continue;
      }
      created.push({
        id: key.id,
        applicationId: application.id,
        environment: key.environment,
        scopes: [...key.scopes],
        ...(key.secret === undefined ? { secret } : {}),
      });
    }
  }
  return created;
}

/** History import: shifts are records, inserted when absent, never overwritten; the completed ones inserted. */
async function insertShifts(db: Executor, workspace: WorkspaceDocument, now: number): Promise<CompletedSpan[]> {
  const inserted: CompletedSpan[] = [];
  for (const batch of batches((workspace.shifts ?? []).map((s) => shiftRow(workspace.id, s, now)))) {
    const rows = await db
      .insertInto('shifts')
      .values(batch)
      .onConflict((oc) => oc.column('id').doNothing())
      .returning(['workspace_id', 'environment', 'staff_id', 'started_at', 'ended_at', 'last_heartbeat_at'])
      .execute();
    for (const row of rows) inserted.push({ ...row, ended_at: row.ended_at ?? row.last_heartbeat_at });
  }
  return inserted;
}

/** Writes a validated document; the caller runs it inside one transaction. Returns the keys it created. */
export async function writeDocument(
  db: Executor,
  document: ProvisioningDocument,
  snapshot: Snapshot,
  now: number,
): Promise<ProvisionedKey[]> {
  await releaseChangedUniqueValues(db, document, snapshot);
  const workspaceRows = document.workspaces.map((w) => workspaceRow(w, now));
  const workspacesChanged = (await upsertRows(db, WORKSPACES, workspaceRows)) > 0;
  const created: ProvisionedKey[] = [];
  // Workspaces whose ranked data changed: staff (status, department), shifts, or the workspace (time zone).
  const rankingChanged: string[] = [];
  // Activity totals: rebuilt where the time zone changed (their buckets are local days), else added to.
  const rebuild: string[] = [];
  const imported: CompletedSpan[] = [];
  for (const workspace of document.workspaces) {
    const { id } = workspace;
    const before = snapshot.workspaces.get(id);
    if (before !== undefined && before.timezone !== workspaceRow(workspace, now).timezone) rebuild.push(id);
    await upsertRows(db, DEPARTMENTS, (workspace.departments ?? []).map((d) => departmentRow(id, d)));
    await upsertRows(db, MEMBERS, (workspace.members ?? []).map((m) => memberRow(id, m)));
    const staffChanged = await upsertRows(db, STAFF, (workspace.staff ?? []).map((s) => staffRow(id, s, now)));
    await upsertRows(db, NOTICES, (workspace.inactivityNotices ?? []).map((n) => noticeRow(id, n)));
    await upsertRows(db, APPLICATIONS, (workspace.applications ?? []).map((a) => applicationRow(id, a)));
    created.push(...(await provisionKeys(db, workspace, snapshot, now)));
    await upsertRows(db, FORMS, (workspace.forms ?? []).map((f) => formRow(id, f, now)));
    const questions = await questionsOfForms(db, workspace);
    const submissions = (workspace.submissions ?? []).map((s) =>
      submissionRow(id, s, now, s.formId === undefined ? undefined : questions.get(s.formId)),
    );
    await upsertRows(db, SUBMISSIONS, submissions);
    const shiftsInserted = await insertShifts(db, workspace, now);
    if (!rebuild.includes(id)) imported.push(...shiftsInserted);
    if (workspacesChanged || staffChanged > 0 || shiftsInserted.length > 0) rankingChanged.push(id);
  }
  // Last, so the workspace rows are locked only at the end of the transaction (see rankings.invalidate).
  await rankings.invalidate(db, rankingChanged);
  await applyCompletedShifts(db, imported);
  for (const workspaceId of rebuild) await rebuildWorkspaceTotals(db, workspaceId);
  return created;
}
