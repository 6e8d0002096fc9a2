import type { Environment, Scope } from '../shared/actor.ts';
import { readQuestions } from '../features/applications/forms/forms.ts';
import type { Question } from '../features/applications/forms/questions.ts';
import type { Executor } from '../db/types.ts';
import { count, noProgress, type Progress } from '../shared/progress.ts';
import { rankings } from '../features/workspaces/rankings.ts';
import { generateApiKey, hashApiKey } from '../auth/keys/api-key.ts';
import { applyCompletedShifts, rebuildWorkspaceTotals, type CompletedSpan } from '../features/activity/totals/service.ts';
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
import { insertShiftsUnlessExist } from '../features/activity/shifts/upkeep.ts';
import { insertSubmissionsUnlessExist } from '../features/applications/upkeep.ts';
import { releaseGameUserId, upsertStaff } from '../features/staff/upkeep.ts';
import { upsertNotices } from '../features/time-off/upkeep.ts';
import { releaseWorkspaceSlug, upsertWorkspaces } from '../features/workspaces/upkeep.ts';
import { insertKeyUnlessExists, updateKey } from '../auth/keys/upkeep.ts';
import { batches } from '../db/upsert.ts';
import { findFormQuestions, upsertApplications, upsertDepartments, upsertForms, upsertMembers } from './repository.ts';

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
      await releaseWorkspaceSlug(db, workspace.id);
    }
    for (const staff of workspace.staff ?? []) {
      const row = snapshot.staff.get(staff.id);
      if (row && row.gameUserId !== staff.gameUserId) {
        await releaseGameUserId(db, staff.id);
      }
    }
  }
}

/** The current questions of the forms the workspace's submissions name (as written by this document). */
async function questionsOfForms(db: Executor, workspace: WorkspaceDocument): Promise<Map<string, Question[]>> {
  const ids = [...new Set((workspace.submissions ?? []).flatMap((s) => (s.formId === undefined ? [] : [s.formId])))];
  if (ids.length === 0) return new Map();
  const rows = await findFormQuestions(db, ids);
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
  const inserted = await insertKeyUnlessExists(db, {
    id: key.id,
    application_id: application.id,
    environment: key.environment,
    key_hash: hashApiKey(secret),
    ...keySettings(key),
    created_at: now,
  });
  return inserted ? secret : null;
}

/** New key ids get a key (the secret only ever leaves in the result); existing ones keep theirs. */
async function provisionKeys(db: Executor, workspace: WorkspaceDocument, snapshot: Snapshot, now: number) {
  const created: ProvisionedKey[] = [];
  for (const application of workspace.applications ?? []) {
    for (const key of application.keys) {
      const secret = snapshot.keys.has(key.id) ? null : await createKey(db, application, key, now);
      if (secret === null) {
        await updateKey(db, key.id, existingKeySettings(key));
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
async function insertShifts(
  db: Executor,
  workspace: WorkspaceDocument,
  now: number,
  batchDone: (rows: number) => void,
): Promise<CompletedSpan[]> {
  const inserted: CompletedSpan[] = [];
  for (const batch of batches((workspace.shifts ?? []).map((s) => shiftRow(workspace.id, s, now)))) {
    const rows = await insertShiftsUnlessExist(db, batch);
    batchDone(batch.length);
    for (const row of rows) inserted.push({ ...row, ended_at: row.ended_at ?? row.last_heartbeat_at });
  }
  return inserted;
}

/** The tables written per workspace, as progress counts them (departments to shifts, keys included). */
const WORKSPACE_TABLES = 9;

/** Writes a validated document; the caller runs it inside one transaction. Returns the keys it created. */
export async function writeDocument(
  db: Executor,
  document: ProvisioningDocument,
  snapshot: Snapshot,
  now: number,
  progress: Progress = noProgress,
): Promise<ProvisionedKey[]> {
  await releaseChangedUniqueValues(db, document, snapshot);
  const workspaceCount = document.workspaces.length;
  let rows = workspaceCount;
  // One step per table of a workspace, with the rows written so far: "workspace 1/3, 4/9 tables, 12,000 rows".
  const tableDone = (index: number, table: number, written: number) => {
    rows += written;
    progress(`workspace ${index + 1}/${workspaceCount}, ${table}/${WORKSPACE_TABLES} tables, ${count(rows)} rows`);
  };
  const workspaceRows = document.workspaces.map((w) => workspaceRow(w, now));
  const workspacesChanged = (await upsertWorkspaces(db, workspaceRows)) > 0;
  const created: ProvisionedKey[] = [];
  // Workspaces whose ranked data changed: staff (status, department), notices, shifts, or the workspace (time zone).
  const rankingChanged: string[] = [];
  // Activity totals: rebuilt where the time zone changed (their buckets are local days), else added to.
  const rebuild: string[] = [];
  const imported: CompletedSpan[] = [];
  for (const [index, workspace] of document.workspaces.entries()) {
    const { id } = workspace;
    const done = (table: number, written: number) => tableDone(index, table, written);
    const before = snapshot.workspaces.get(id);
    if (before !== undefined && before.timezone !== workspaceRow(workspace, now).timezone) rebuild.push(id);
    const departments = (workspace.departments ?? []).map((d) => departmentRow(id, d));
    await upsertDepartments(db, departments);
    done(1, departments.length);
    const members = (workspace.members ?? []).map((m) => memberRow(id, m));
    await upsertMembers(db, members);
    done(2, members.length);
    const staff = (workspace.staff ?? []).map((s) => staffRow(id, s, now));
    const staffChanged = await upsertStaff(db, staff);
    done(3, staff.length);
    const notices = (workspace.inactivityNotices ?? []).map((n) => noticeRow(id, n, now));
    const noticesChanged = await upsertNotices(db, notices);
    done(4, notices.length);
    const applications = (workspace.applications ?? []).map((a) => applicationRow(id, a));
    await upsertApplications(db, applications);
    done(5, applications.length);
    created.push(...(await provisionKeys(db, workspace, snapshot, now)));
    done(6, (workspace.applications ?? []).reduce((n, a) => n + a.keys.length, 0));
    const forms = (workspace.forms ?? []).map((f) => formRow(id, f, now));
    await upsertForms(db, forms);
    done(7, forms.length);
    const questions = await questionsOfForms(db, workspace);
    const submissions = (workspace.submissions ?? []).map((s) =>
      submissionRow(id, s, now, s.formId === undefined ? undefined : questions.get(s.formId)),
    );
    await insertSubmissionsUnlessExist(db, submissions);
    done(8, submissions.length);
    // Shifts are most of a history import: one step per batch.
    const shiftsInserted = await insertShifts(db, workspace, now, (written) => done(8, written));
    done(9, 0);
    if (!rebuild.includes(id)) imported.push(...shiftsInserted);
    if (workspacesChanged || staffChanged > 0 || noticesChanged > 0 || shiftsInserted.length > 0) rankingChanged.push(id);
  }
  // Last, so the workspace rows are locked only at the end of the transaction (see rankings.invalidate).
  progress(`rankings and activity totals, ${count(rows)} rows`);
  await rankings.invalidate(db, rankingChanged);
  await applyCompletedShifts(db, imported);
  for (const workspaceId of rebuild) await rebuildWorkspaceTotals(db, workspaceId);
  return created;
}
