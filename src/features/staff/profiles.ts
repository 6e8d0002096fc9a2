/**
 * Staff profiles as every feature reads them (a shift's start, reports, the chat bot's lookups): the staff
 * feature's shared read module. Other features import these, never a repository of this one.
 */
import { runStatement, type StaffProfileRow } from '../../db/sql/index.ts';
import type { Executor } from '../../db/types.ts';

export interface StaffProfile {
  readonly id: string;
  readonly workspaceId: string;
  readonly displayName: string;
  readonly gameUserId: string;
  readonly gameUsername: string;
  readonly chatUserId: string | null;
  readonly department: { readonly id: string; readonly name: string; readonly weeklyRequiredMinutes: number | null } | null;
  readonly rank: string | null;
  readonly status: string;
  /** The staff member's own override, if any. */
  readonly weeklyRequiredMinutesOverride: number | null;
}

function toProfile(row: StaffProfileRow): StaffProfile {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    displayName: row.display_name,
    gameUserId: row.game_user_id,
    gameUsername: row.game_username,
    chatUserId: row.chat_user_id,
    department:
      row.department_id !== null && row.department_name !== null
        ? {
            id: row.department_id,
            name: row.department_name,
            weeklyRequiredMinutes: row.department_weekly_required_minutes,
          }
        : null,
    rank: row.rank,
    status: row.status,
    weeklyRequiredMinutesOverride: row.weekly_required_minutes,
  };
}

export async function findStaffByChatUser(
  db: Executor,
  workspaceId: string,
  chatUserId: string,
): Promise<StaffProfile | undefined> {
  const [row] = await runStatement(db, 'findStaffByChatUser', [workspaceId, chatUserId]);
  return row ? toProfile(row) : undefined;
}

export async function findStaffByGameUser(
  db: Executor,
  workspaceId: string,
  gameUserId: string,
): Promise<StaffProfile | undefined> {
  const [row] = await runStatement(db, 'findStaffByGameUser', [workspaceId, gameUserId]);
  return row ? toProfile(row) : undefined;
}

/** Profiles of some staff members of the workspace (e.g. one leaderboard page). */
export async function findStaffProfiles(
  db: Executor,
  workspaceId: string,
  ids: readonly string[],
): Promise<StaffProfile[]> {
  if (ids.length === 0) return [];
  // By primary key only, the workspace checked on the rows: with a workspace predicate in the statement, SQLite
  // without statistics prefers the workspace index and reads every staff row of the workspace.
  const rows = await runStatement(db, 'findStaffProfiles', [JSON.stringify(ids)]);
  return rows.filter((row) => row.workspace_id === workspaceId).map(toProfile);
}
