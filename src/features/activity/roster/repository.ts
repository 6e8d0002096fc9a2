/**
 * The roster's and a staff member's page's own reads (docs/API.md, "Staff in the console"): the shifts under way of
 * a page of staff, a staff member's last completed shifts and last notices. Worked time comes from the activity
 * totals and profiles from staff/profiles.ts.
 */
import { sql } from 'kysely';
import type { Environment } from '../../../shared/actor.ts';
import { inJsonList, rowsOf } from '../../../db/dialect.ts';
import type { Executor } from '../../../db/types.ts';
import { liveShift } from '../shifts/rules.ts';
import { COMPLETED } from '../shifts/status.ts';

/** One workspace, one environment. */
export interface RosterAudience {
  readonly workspaceId: string;
  readonly environment: Environment;
}

export interface LiveShiftRow {
  readonly id: string;
  readonly staff_id: string;
  readonly started_at: number;
}

/** The live shifts of some staff members of the workspace in the environment (index shifts_one_active's rows). */
export async function findLiveShifts(
  db: Executor,
  audience: RosterAudience,
  staffIds: readonly string[],
  staleBefore: number,
): Promise<LiveShiftRow[]> {
  if (staffIds.length === 0) return [];
  // The page's ids as one JSON value: one statement text for any page size.
  const rows = await rowsOf(
    db,
    sql<LiveShiftRow>`select id, staff_id, started_at
from shifts
where ${inJsonList(db, 'staff_id', staffIds)}
  and workspace_id = ${audience.workspaceId} and environment = ${audience.environment} and ${liveShift(staleBefore, 'scan')}`,
  );
  return rows.map((row) => ({ ...row, started_at: Number(row.started_at) }));
}

export interface RecentShiftRow {
  readonly id: string;
  readonly started_at: number;
  readonly ended_at: number;
  readonly end_reason: string | null;
}

/** The staff member's last `limit` completed shifts of the environment, by start, newest first (index shifts_staff_ended). */
export async function listRecentShifts(
  db: Executor,
  audience: RosterAudience,
  staffId: string,
  limit: number,
): Promise<RecentShiftRow[]> {
  const rows = await db
    .selectFrom('shifts')
    .select(['id', 'started_at', 'ended_at', 'end_reason'])
    .where('staff_id', '=', staffId)
    .where('environment', '=', audience.environment)
    .where('workspace_id', '=', audience.workspaceId)
    .where('status', '=', COMPLETED)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    started_at: Number(row.started_at),
    ended_at: Number(row.ended_at),
    end_reason: row.end_reason,
  }));
}

/** A notice as a staff member's page shows it: never its reason or decision note, which this read does not select. */
export interface PageNoticeRow {
  readonly id: string;
  readonly staff_id: string;
  readonly environment: Environment;
  readonly starts_at: number;
  readonly ends_at: number;
  readonly status: string;
  readonly created_at: number;
  readonly decided_at: number | null;
}

/** The staff member's last `limit` notices of the environment, by start, newest first (index inactivity_notices_staff). */
export async function listRecentNotices(
  db: Executor,
  environment: Environment,
  staffId: string,
  limit: number,
): Promise<PageNoticeRow[]> {
  const rows = await db
    .selectFrom('inactivity_notices')
    .select(['id', 'staff_id', 'environment', 'starts_at', 'ends_at', 'status', 'created_at', 'decided_at'])
    .where('staff_id', '=', staffId)
    .where('environment', '=', environment)
    .orderBy('starts_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    starts_at: Number(row.starts_at),
    ends_at: Number(row.ends_at),
    created_at: Number(row.created_at),
    decided_at: row.decided_at === null ? null : Number(row.decided_at),
  }));
}
