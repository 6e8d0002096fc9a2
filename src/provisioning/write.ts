import type { Environment, Scope } from '../actor.js';
import type { Executor } from '../db/types.js';
import { bumpActivityVersion } from '../features/workspaces/repository.js';
import { hashApiKey } from '../http/authentication.js';
import { randomBase62 } from '../ids.js';
import { instant } from './document.js';
import {
  applicationRow,
  departmentRow,
  memberRow,
  noticeRow,
  shiftRow,
  staffRow,
  submissionRow,
  workspaceRow,
} from './rows.js';
import type { ApplicationDocument, KeyDocument, ProvisioningDocument, WorkspaceDocument } from './schema.js';
import type { Snapshot } from './snapshot.js';

/** A key this run created. `secret` is present only when this run generated it (never for an imported one). */
export interface ProvisionedKey {
  readonly id: string;
  readonly applicationId: string;
  readonly environment: Environment;
  readonly scopes: Scope[];
  readonly secret?: string;
}

// Rows per multi-row statement: at most 15 columns each, well under both stores' parameter limits.
const BATCH = 100;

function batches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(rows.slice(i, i + BATCH));
  return out;
}

const SECRET_LENGTH = 40;

export function generateSecret(environment: Environment): string {
  return `wsk_${environment}_${randomBase62(SECRET_LENGTH)}`;
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

/** Updates a workspace only when something differs, so re-applying leaves `updated_at` alone. */
async function upsertWorkspaces(db: Executor, workspaces: readonly WorkspaceDocument[], now: number): Promise<number> {
  let changed = 0;
  for (const batch of batches(workspaces.map((w) => workspaceRow(w, now)))) {
    const result = await db
      .insertInto('workspaces')
      .values(batch)
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            slug: eb.ref('excluded.slug'),
            timezone: eb.ref('excluded.timezone'),
            settings: eb.ref('excluded.settings'),
            create_staff_profile_on_accept: eb.ref('excluded.create_staff_profile_on_accept'),
            weekly_required_minutes: eb.ref('excluded.weekly_required_minutes'),
            chat_guild_id: eb.ref('excluded.chat_guild_id'),
            chat_status: eb.ref('excluded.chat_status'),
            chat_connected_at: eb.ref('excluded.chat_connected_at'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where((eb) =>
            eb.or(
              (
                [
                  'name',
                  'slug',
                  'timezone',
                  'settings',
                  'create_staff_profile_on_accept',
                  'weekly_required_minutes',
                  'chat_guild_id',
                  'chat_status',
                  'chat_connected_at',
                ] as const
              ).map((column) => eb(`workspaces.${column}`, 'is distinct from', eb.ref(`excluded.${column}`))),
            ),
          ),
      )
      .executeTakeFirst();
    changed += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return changed;
}

async function upsertDepartments(db: Executor, workspace: WorkspaceDocument) {
  for (const batch of batches((workspace.departments ?? []).map((d) => departmentRow(workspace.id, d)))) {
    await db
      .insertInto('departments')
      .values(batch)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          weekly_required_minutes: eb.ref('excluded.weekly_required_minutes'),
        })),
      )
      .execute();
  }
}

async function upsertMembers(db: Executor, workspace: WorkspaceDocument) {
  for (const batch of batches((workspace.members ?? []).map((m) => memberRow(workspace.id, m)))) {
    await db
      .insertInto('members')
      .values(batch)
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'user_id']).doUpdateSet((eb) => ({ permissions: eb.ref('excluded.permissions') })),
      )
      .execute();
  }
}

/** Inserts or updates the workspace's staff; returns how many rows were inserted or actually changed. */
async function upsertStaff(db: Executor, workspace: WorkspaceDocument, now: number): Promise<number> {
  const columns = [
    'display_name',
    'game_user_id',
    'game_username',
    'chat_user_id',
    'department_id',
    'rank',
    'status',
    'weekly_required_minutes',
  ] as const;
  let changed = 0;
  for (const batch of batches((workspace.staff ?? []).map((s) => staffRow(workspace.id, s, now)))) {
    const result = await db
      .insertInto('staff')
      .values(batch)
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => Object.fromEntries(columns.map((column) => [column, eb.ref(`excluded.${column}`)])))
          .where((eb) => eb.or(columns.map((column) => eb(`staff.${column}`, 'is distinct from', eb.ref(`excluded.${column}`))))),
      )
      .executeTakeFirst();
    changed += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return changed;
}

async function upsertNotices(db: Executor, workspace: WorkspaceDocument) {
  for (const batch of batches((workspace.inactivityNotices ?? []).map((n) => noticeRow(workspace.id, n)))) {
    await db
      .insertInto('inactivity_notices')
      .values(batch)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          staff_id: eb.ref('excluded.staff_id'),
          starts_at: eb.ref('excluded.starts_at'),
          ends_at: eb.ref('excluded.ends_at'),
          reason: eb.ref('excluded.reason'),
          status: eb.ref('excluded.status'),
        })),
      )
      .execute();
  }
}

async function upsertApplications(db: Executor, workspace: WorkspaceDocument) {
  for (const batch of batches((workspace.applications ?? []).map((a) => applicationRow(workspace.id, a)))) {
    await db
      .insertInto('applications')
      .values(batch)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          approved: eb.ref('excluded.approved'),
          allowed_universe_ids: eb.ref('excluded.allowed_universe_ids'),
          features: eb.ref('excluded.features'),
        })),
      )
      .execute();
  }
}

function keySettings(key: KeyDocument) {
  return {
    scopes: JSON.stringify(key.scopes),
    revoked: key.revoked === true ? 1 : 0,
    expires_at: typeof key.expiresAt === 'string' ? instant(key.expiresAt) : null,
  };
}

/** Inserts the key unless its id exists; returns the secret it was created with, or null when it existed. */
async function createKey(db: Executor, application: ApplicationDocument, key: KeyDocument, now: number) {
  const secret = key.secret ?? generateSecret(key.environment);
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
        await db.updateTable('api_keys').set(keySettings(key)).where('id', '=', key.id).execute();
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

/**
 * Submissions and shifts are records, not configuration: inserted when absent, never overwritten. Returns how
 * many shifts were inserted.
 */
async function insertRecords(db: Executor, workspace: WorkspaceDocument, now: number): Promise<number> {
  for (const batch of batches((workspace.submissions ?? []).map((s) => submissionRow(workspace.id, s, now)))) {
    await db.insertInto('submissions').values(batch).onConflict((oc) => oc.column('id').doNothing()).execute();
  }
  let inserted = 0;
  for (const batch of batches((workspace.shifts ?? []).map((s) => shiftRow(workspace.id, s, now)))) {
    const result = await db
      .insertInto('shifts')
      .values(batch)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
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
  const workspacesChanged = (await upsertWorkspaces(db, document.workspaces, now)) > 0;
  const created: ProvisionedKey[] = [];
  // Workspaces whose ranked data changed: staff (status, department), shifts, or the workspace (time zone).
  const rankingChanged: string[] = [];
  for (const workspace of document.workspaces) {
    await upsertDepartments(db, workspace);
    await upsertMembers(db, workspace);
    const staffChanged = await upsertStaff(db, workspace, now);
    await upsertNotices(db, workspace);
    await upsertApplications(db, workspace);
    created.push(...(await provisionKeys(db, workspace, snapshot, now)));
    const shiftsInserted = await insertRecords(db, workspace, now);
    if (workspacesChanged || staffChanged > 0 || shiftsInserted > 0) rankingChanged.push(workspace.id);
  }
  // Last, so the workspace rows are locked only at the end of the transaction (see bumpActivityVersion).
  await bumpActivityVersion(db, rankingChanged);
  return created;
}
