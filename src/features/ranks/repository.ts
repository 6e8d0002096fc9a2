/**
 * The ranks feature's queries: a staff member's rank, the workspace's ranks and group, and the rank changes
 * (the feature owns `rank_changes`; `staff.rank` changes only through here once a workspace has ranks). Writers
 * lock the staff member's row first (PostgreSQL), so two changes of one staff member take turns.
 */
import type { Selectable } from 'kysely';
import { lockingRowsOf } from '../../db/dialect.ts';
import type { Executor, RankChangeTable } from '../../db/types.ts';

export type RankChangeRow = Selectable<RankChangeTable>;

/** A staff member as a rank change reads and shows them. */
export interface RankStaffRow {
  readonly id: string;
  readonly workspace_id: string;
  readonly display_name: string;
  readonly game_user_id: string;
  readonly game_username: string;
  readonly chat_user_id: string | null;
  readonly department_id: string | null;
  readonly rank: string | null;
  readonly status: string;
}

const STAFF_COLUMNS = [
  'id',
  'workspace_id',
  'display_name',
  'game_user_id',
  'game_username',
  'chat_user_id',
  'department_id',
  'rank',
  'status',
] as const;

/** The staff member, their row locked until the transaction ends (PostgreSQL). */
export async function findStaffLocking(db: Executor, staffId: string): Promise<RankStaffRow | undefined> {
  return db.selectFrom('staff as s').select(STAFF_COLUMNS.map((c) => `s.${c}` as const)).where('s.id', '=', staffId).modifyEnd(lockingRowsOf(db, 's')).executeTakeFirst();
}

/** The staff member's workspace, for a read of their changes. */
export async function findStaffWorkspace(db: Executor, staffId: string): Promise<string | undefined> {
  const row = await db.selectFrom('staff').select('workspace_id').where('id', '=', staffId).executeTakeFirst();
  return row?.workspace_id;
}

/** The workspace's ranks. */
export async function findRanks(db: Executor, workspaceId: string) {
  return db.selectFrom('ranks').select(['name', 'role_id', 'rank_order', 'assignable']).where('workspace_id', '=', workspaceId).execute();
}

/** The ranks of the workspaces, each workspace's in rank order (for the console, src/features/ranks/catalog.ts). */
export async function findRanksInOrder(db: Executor, workspaceIds: readonly string[]) {
  if (workspaceIds.length === 0) return [];
  return db
    .selectFrom('ranks')
    .select(['workspace_id', 'name', 'rank_order', 'assignable'])
    .where('workspace_id', 'in', [...workspaceIds])
    .orderBy('workspace_id')
    .orderBy('rank_order')
    .execute();
}

/** Whether the workspace's group can be synced: a group id and an API key. */
export async function findSyncConfigured(db: Executor, workspaceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('roblox_settings')
    .select('workspace_id')
    .where('workspace_id', '=', workspaceId)
    .where('api_key', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertRankChange(db: Executor, row: RankChangeRow): Promise<void> {
  await db.insertInto('rank_changes').values(row).execute();
}

/** The staff member's changes, newest first. */
export async function findRankChanges(db: Executor, staffId: string, limit: number): Promise<RankChangeRow[]> {
  return db.selectFrom('rank_changes').selectAll().where('staff_id', '=', staffId).orderBy('id', 'desc').limit(limit).execute();
}

export async function findRankChange(db: Executor, id: string): Promise<RankChangeRow | undefined> {
  return db.selectFrom('rank_changes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The entry rank of the form an accepted submission was made to (null: none, or no form). */
export async function findEntryRank(db: Executor, submissionId: string): Promise<string | null> {
  const row = await db
    .selectFrom('submissions as s')
    .innerJoin('application_forms as f', 'f.id', 's.form_id')
    .select('f.entry_rank')
    .where('s.id', '=', submissionId)
    .executeTakeFirst();
  return row?.entry_rank ?? null;
}
