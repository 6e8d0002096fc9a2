/**
 * Report queries besides worked time (which the activity totals answer: src/features/activity/totals): ranked staff,
 * notices, live shifts. Every query is scoped to one workspace (or some of its staff) and one environment.
 */
import type { Environment, UnconfirmedKey } from '../../../shared/actor.ts';
import { sql } from 'kysely';
import { inJsonList, rowsOf } from '../../../db/dialect.ts';
import type { Executor } from '../../../db/types.ts';
import type { Interval } from '../periods/period-math.ts';
import { liveShift } from '../shifts/rules.ts';

/** Which staff data a read sees: one workspace, one environment. */
export interface ReportAudience {
  readonly workspaceId: string;
  readonly environment: Environment;
  /** An API key reader's unconfirmed key (shared/actor.ts), checked by the report's first read. */
  readonly unconfirmedKey?: UnconfirmedKey;
}

// ---------------------------------------------------------------------------------------------------------
// One staff member
// ---------------------------------------------------------------------------------------------------------

export interface StaffShiftRow {
  readonly id: string;
  readonly status: string;
  readonly started_at: number;
  readonly ended_at: number | null;
  readonly last_heartbeat_at: number;
  readonly last_seen_at: number;
  readonly universe_id: string;
  readonly place_id: string;
  readonly server_id: string;
}


/** An approved inactivity notice of a staff member. */
export interface NoticeRow {
  readonly id: string;
  readonly staff_id: string;
  readonly starts_at: number;
  readonly ends_at: number;
  readonly reason: string;
}

// ---------------------------------------------------------------------------------------------------------
// Leaderboard
// ---------------------------------------------------------------------------------------------------------

/**
 * The earliest `last_seen_at` of the workspace's live active shifts (index shifts_active_by_start), or null when
 * none is live: the first of them can time out, and so start counting as worked time, a timeout after it.
 */
export async function earliestLiveSeen(db: Executor, audience: ReportAudience, staleBefore: number): Promise<number | null> {
  const row = await db
    .selectFrom('shifts')
    .select((eb) => eb.fn.min<number | string | null>('last_seen_at').as('seen'))
    .where('workspace_id', '=', audience.workspaceId)
    .where('environment', '=', audience.environment)
    .where(liveShift(staleBefore, 'scan'))
    .executeTakeFirst();
  return row?.seen === null || row?.seen === undefined ? null : Number(row.seen);
}

export interface LeaderboardStaffFilter {
  readonly statuses: readonly string[];
  readonly departmentId: string | null;
}

/** Ids of the staff members a leaderboard ranks: all of them are ranked, so only the id is read. */
export async function listRankedStaffIds(
  db: Executor,
  workspaceId: string,
  filter: LeaderboardStaffFilter,
): Promise<string[]> {
  let query = db
    .selectFrom('staff')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', 'in', [...filter.statuses]);
  if (filter.departmentId !== null) query = query.where('department_id', '=', filter.departmentId);
  const rows = await query.execute();
  return rows.map((row) => row.id);
}

/**
 * Approved inactivity notices of one environment (the reading key's) of the given staff members overlapping
 * `[start, end)` (index inactivity_notices_staff_end: the notices not over by `start`).
 */
export async function findApprovedNotices(
  db: Executor,
  environment: Environment,
  staffIds: readonly string[],
  period: Interval,
): Promise<NoticeRow[]> {
  if (staffIds.length === 0) return [];
  // Every summary and leaderboard page runs it: its ids one JSON value, so one text for any number of them.
  return rowsOf(
    db,
    sql<NoticeRow>`select id, staff_id, starts_at, ends_at, reason
from inactivity_notices
where ${inJsonList(db, 'staff_id', staffIds)}
  and environment = ${environment} and status = 'approved' and ends_at > ${period.start} and starts_at < ${period.end}`,
  );
}
