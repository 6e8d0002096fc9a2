/**
 * Staff profiles as every feature reads them (a shift's start, reports, the chat bot's lookups): the staff
 * feature's shared read module. Other features import these, never a repository of this one.
 */
import { sql, type RawBuilder } from 'kysely';
import { inJsonList, rowsOf } from '../../db/dialect.ts';
import { checkHolds, holdsColumn, unconfirmedKeyHolds } from '../../auth/keys/api-key.ts';
import type { Executor } from '../../db/types.ts';
import type { UnconfirmedKey } from '../../shared/actor.ts';
import { workspaceOfRow, type Workspace, type WorkspaceRow } from '../workspaces/workspace.ts';

/** A staff member with their department's fields (null without one). */
export interface StaffProfileRow {
  readonly id: string;
  readonly workspace_id: string;
  readonly display_name: string;
  readonly game_user_id: string;
  readonly game_username: string;
  readonly chat_user_id: string | null;
  readonly rank: string | null;
  readonly status: string;
  readonly weekly_required_minutes: number | null;
  readonly department_id: string | null;
  readonly department_name: string | null;
  readonly department_weekly_required_minutes: number | null;
}

/** The profile's columns, each with its expression over staff (`s`) and their departments (`d`): written once. */
const PROFILE_COLUMNS: readonly (readonly [keyof StaffProfileRow, string])[] = [
  ['id', 's.id'],
  ['workspace_id', 's.workspace_id'],
  ['display_name', 's.display_name'],
  ['game_user_id', 's.game_user_id'],
  ['game_username', 's.game_username'],
  ['chat_user_id', 's.chat_user_id'],
  ['rank', 's.rank'],
  ['status', 's.status'],
  ['weekly_required_minutes', 's.weekly_required_minutes'],
  ['department_id', 'd.id'],
  ['department_name', 'd.name'],
  ['department_weekly_required_minutes', 'd.weekly_required_minutes'],
];

/**
 * The select list of the profile's columns over staff (`s`) and their departments (`d`), each named with `prefix`
 * (constant text, no values): for reads that join more to a profile (the roster's page, activity/roster).
 */
export function profileColumns(prefix: '' | 'staff_'): RawBuilder<unknown> {
  const named = PROFILE_COLUMNS.map(([name, expression]) =>
    expression.endsWith(`.${prefix}${name}`) ? expression : `${expression} as ${prefix}${name}`,
  );
  return sql.raw(named.join(',\n       '));
}

/** Staff members (`s`) with their departments, where `where` holds, then `rest` (order, limit). */
function staffProfiles(where: RawBuilder<boolean>, rest: RawBuilder<unknown> = sql``): RawBuilder<StaffProfileRow> {
  return sql<StaffProfileRow>`select ${profileColumns('')}
from staff as s
left join departments as d on d.id = s.department_id
where ${where}${rest}`;
}

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

/** The profile of a row selected with `profileColumns('')`. */
export function profileOfRow(row: StaffProfileRow): StaffProfile {
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

/** The workspace's row with the columns of its staff member of `staffProfiles`, prefixed `staff_` (null for none). */
type WorkspaceWithStaffRow = WorkspaceRow & {
  readonly [K in keyof StaffProfileRow as `staff_${K}`]: StaffProfileRow[K] | null;
};

/** The staff member's profile of a joined row (`profileColumns('staff_')`), or undefined when it has none. */
function staffOfJoinedRow(row: WorkspaceWithStaffRow): StaffProfileRow | undefined {
  if (row.staff_id === null) return undefined;
  const columns: Record<string, unknown> = {};
  for (const [name] of PROFILE_COLUMNS) columns[name] = row[`staff_${name}`];
  // Every column was selected with the prefix, and with staff_id set the join found the staff member's row.
  return columns as unknown as StaffProfileRow;
}

/**
 * The workspace, and its staff member with this chat user id (the first created, should several share it), in one
 * read: what every operation of the acting chat user reads first. With a hot read's unconfirmed key
 * (shared/actor.ts), the same statement checks that its credential still holds, and PreconditionFailed is thrown
 * when it does not.
 */
export async function findWorkspaceWithChatStaff(
  db: Executor,
  workspaceId: string,
  chatUserId: string,
  unconfirmedKey?: UnconfirmedKey,
): Promise<{ readonly workspace: Workspace | undefined; readonly staff: StaffProfile | undefined }> {
  const precondition = unconfirmedKeyHolds(unconfirmedKey);
  // A literal limit: SQLite sorts for a bound LIMIT with a general sorter, several times slower than its top-1 path.
  const [row] = await rowsOf(
    db,
    sql<WorkspaceWithStaffRow & { holds?: unknown }>`select w.*, ${profileColumns('staff_')}${holdsColumn(precondition)}
from workspaces as w
left join staff as s on s.id = (
  select c.id from staff as c where c.workspace_id = w.id and c.chat_user_id = ${chatUserId}
  order by c.created_at, c.id
  limit 1)
left join departments as d on d.id = s.department_id
where w.id = ${workspaceId}`,
  );
  checkHolds(precondition !== undefined, row);
  if (!row) return { workspace: undefined, staff: undefined };
  const staff = staffOfJoinedRow(row);
  return { workspace: workspaceOfRow(row), staff: staff && profileOfRow(staff) };
}

export async function findStaffByGameUser(
  db: Executor,
  workspaceId: string,
  gameUserId: string,
): Promise<StaffProfile | undefined> {
  const [row] = await rowsOf(db, staffProfiles(sql<boolean>`s.workspace_id = ${workspaceId} and s.game_user_id = ${gameUserId}`));
  return row ? profileOfRow(row) : undefined;
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
  const rows = await rowsOf(db, staffProfiles(inJsonList(db, 's.id', ids)));
  return rows.filter((row) => row.workspace_id === workspaceId).map(profileOfRow);
}

/** A staff member of the workspace by id (any status), or undefined. */
export async function findStaffProfile(db: Executor, workspaceId: string, staffId: string): Promise<StaffProfile | undefined> {
  const [row] = await rowsOf(db, staffProfiles(sql<boolean>`s.id = ${staffId} and s.workspace_id = ${workspaceId}`));
  return row ? profileOfRow(row) : undefined;
}
