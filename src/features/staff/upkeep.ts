/**
 * The statements other modules run on the `staff` table, which this module owns (docs/DATA.md): the document's
 * rows (provisioning), a profile created by an acceptance, a rank given, and a person's names erased.
 */
import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../db/types.ts';
import { upsertRows, type Upsert } from '../../db/upsert.ts';
import { newId } from '../../shared/ids.ts';
import { rankings } from '../workspaces/rankings.ts';
import { findStaffByGameUser } from './profiles.ts';

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

// Overwritten from the document only when something differs, so re-applying leaves `updated_at` alone and counts
// no change.
const STAFF: Upsert<'staff'> = { table: 'staff', conflict: ['id'], update: STAFF_SETTINGS, onlyWhenChanged: STAFF_SETTINGS };

/** Writes a document's staff members; returns how many were inserted or changed. */
export function upsertStaff(db: Executor, rows: readonly Insertable<Database['staff']>[]): Promise<number> {
  return upsertRows(db, STAFF, rows);
}

/** Gives up the staff member's game user id for a placeholder no real one can take ("~" and its id). */
export async function releaseGameUserId(db: Executor, staffId: string): Promise<void> {
  await db.updateTable('staff').set({ game_user_id: `~${staffId}` }).where('id', '=', staffId).execute();
}

/** A person who becomes a staff member (an accepted applicant). */
export interface NewStaff {
  readonly workspaceId: string;
  readonly displayName: string;
  readonly gameUserId: string;
  readonly gameUsername: string;
  readonly chatUserId: string | null;
  readonly createdAt: number;
}

/**
 * Inserts an active staff profile without rank or department unless the workspace already has one for that game
 * user (unique index); returns whether this call inserted it.
 */
export async function insertStaffIfAbsent(db: Executor, id: string, staff: NewStaff): Promise<boolean> {
  const result = await db
    .insertInto('staff')
    .values({
      id,
      workspace_id: staff.workspaceId,
      display_name: staff.displayName,
      game_user_id: staff.gameUserId,
      game_username: staff.gameUsername,
      chat_user_id: staff.chatUserId,
      department_id: null,
      rank: null,
      status: 'active',
      weekly_required_minutes: null,
      created_at: staff.createdAt,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'game_user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * The workspace's staff profile of the person's game user, created when there is none (a new active staff
 * member, who joins the workspace's leaderboards); `created` says whether this call made it.
 */
export async function ensureStaffProfile(db: Executor, staff: NewStaff): Promise<{ readonly id: string; readonly created: boolean }> {
  const existing = await findStaffByGameUser(db, staff.workspaceId, staff.gameUserId);
  if (existing) return { id: existing.id, created: false };
  const id = newId();
  if (await insertStaffIfAbsent(db, id, staff)) {
    await rankings.invalidate(db, staff.workspaceId);
    return { id, created: true };
  }
  // Another transaction created it between the read and the insert.
  const raced = await findStaffByGameUser(db, staff.workspaceId, staff.gameUserId);
  if (!raced) throw new Error('staff profile vanished after a unique conflict');
  return { id: raced.id, created: false };
}

export async function setStaffRank(db: Executor, staffId: string, rank: string | null): Promise<void> {
  await db.updateTable('staff').set({ rank }).where('id', '=', staffId).execute();
}

/** What identifies a staff profile, for an erasure. */
export interface StaffIdentity {
  readonly id: string;
  readonly display_name: string;
  readonly game_username: string;
  readonly chat_user_id: string | null;
}

/** Staff profiles of the game user (in any workspace, or in `workspaceId`), with what identifies them. */
export async function findStaffIdentities(db: Executor, gameUserId: string, workspaceId: string | null = null): Promise<StaffIdentity[]> {
  return db
    .selectFrom('staff')
    .select(['id', 'display_name', 'game_username', 'chat_user_id'])
    .where('game_user_id', '=', gameUserId)
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
}

/** Replaces a profile's names, username and game user id with `alias` and clears its chat user id. */
export async function anonymiseStaff(db: Executor, id: string, alias: string): Promise<void> {
  await db
    .updateTable('staff')
    .set({ display_name: alias, game_username: alias, game_user_id: alias, chat_user_id: null })
    .where('id', '=', id)
    .execute();
}
