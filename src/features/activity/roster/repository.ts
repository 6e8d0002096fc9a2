/**
 * The roster's and a staff member's page's own reads (docs/API.md, "Staff in the console"): a page of staff with
 * what their week and shift under way are computed from, a staff member's last completed shifts and last notices.
 * Profiles' columns come from staff/profiles.ts.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Environment } from '../../../shared/actor.ts';
import { byCodePoints, jsonArrays, jsonArraysOf, rowsOf } from '../../../db/dialect.ts';
import type { Executor } from '../../../db/types.ts';
import { profileColumns, profileOfRow, type StaffProfile, type StaffProfileRow } from '../../staff/profiles.ts';
import { COMPLETED } from '../shifts/status.ts';
import type { ActiveShiftTimes } from '../totals/service.ts';

/** One workspace, one environment. */
export interface RosterAudience {
  readonly workspaceId: string;
  readonly environment: Environment;
}

/** Which staff members a roster lists, and where its page starts (after this display name and id). */
export interface RosterFilter {
  readonly statuses: readonly string[];
  readonly departmentId: string | null;
  readonly rank: string | null;
  readonly after: { readonly displayName: string; readonly id: string } | null;
  readonly limit: number;
}

/** The week a roster page shows: one bucket of the activity totals (a week of the workspace time zone). */
export interface RosterWeek {
  readonly start: number;
  readonly end: number;
}

/** An approved notice of a roster row's staff member in the environment overlapping the week. */
export interface RosterNotice {
  readonly id: string;
  readonly starts_at: number;
  readonly ends_at: number;
}

/** A staff member of a roster page, with what their week's figures and shift under way are computed from. */
export interface RosterRow {
  readonly profile: StaffProfile;
  /** The staff member's worked milliseconds in the week's bucket of the totals (0 without a row). */
  readonly weekWorkedMs: number;
  readonly activeShifts: readonly ActiveShiftTimes[];
  readonly notices: readonly RosterNotice[];
}

interface RosterPageRow extends StaffProfileRow {
  readonly week_worked_ms: number | null;
  readonly active_shifts: unknown;
  readonly notices: unknown;
}

/**
 * One page of the workspace's staff by display name then id, both compared by code points (docs/API.md, "Staff
 * in the console"): at most `limit` after the cursor, read in order through index staff_roster. In the same
 * statement (a page is one read: docs/BENCHMARKS.md, "Statements a request sends to PostgreSQL"), what each staff
 * member's week is computed from as the leaderboard reads it: their worked time in the week's bucket of the totals
 * (its key), their shifts without an end in the environment (index shifts_staff_ended: the active ones, live or
 * timed out), and their approved notices of the environment overlapping the week (index
 * inactivity_notices_staff_end); both lists are short, and null when empty.
 *
 * The shifts are found by `ended_at is null`, without naming `status = 'active'`: with it PostgreSQL's planner may
 * read them through a partial index of the workspace's active shifts instead, all of them for each staff member
 * (see shifts/rules.ts, `ShiftLookup`). Their status is read, and the service keeps the active ones.
 */
export async function listRosterPage(
  db: Executor,
  audience: RosterAudience,
  filter: RosterFilter,
  week: RosterWeek,
): Promise<RosterRow[]> {
  const name = byCodePoints(db, 's.display_name');
  const id = byCodePoints(db, 's.id');
  const conditions: RawBuilder<unknown>[] = [
    sql`s.workspace_id = ${audience.workspaceId}`,
    sql`s.status in (${sql.join(filter.statuses)})`,
  ];
  if (filter.departmentId !== null) conditions.push(sql`s.department_id = ${filter.departmentId}`);
  if (filter.rank !== null) conditions.push(sql`s.rank = ${filter.rank}`);
  const after = filter.after;
  if (after !== null) {
    conditions.push(sql`(${name} > ${after.displayName} or (${name} = ${after.displayName} and ${id} > ${after.id}))`);
  }
  const { environment } = audience;
  const rows = await rowsOf(
    db,
    sql<RosterPageRow>`select ${profileColumns('')},
       (select t.worked_ms
          from activity_totals as t
          where t.workspace_id = s.workspace_id and t.environment = ${environment} and t.grain = 'week'
            and t.bucket_start = ${week.start} and t.staff_id = s.id) as week_worked_ms,
       (select ${jsonArrays(db, ['a.id', 'a.status', 'a.started_at', 'a.last_heartbeat_at', 'a.last_seen_at'])}
          from shifts as a
          where a.staff_id = s.id and a.environment = ${environment} and a.ended_at is null) as active_shifts,
       (select ${jsonArrays(db, ['n.id', 'n.starts_at', 'n.ends_at'])}
          from inactivity_notices as n
          where n.staff_id = s.id and n.environment = ${environment} and n.status = 'approved'
            and n.ends_at > ${week.start} and n.starts_at < ${week.end}) as notices
from staff as s
left join departments as d on d.id = s.department_id
where ${sql.join(conditions, sql` and `)}
order by ${name}, ${id}
limit ${filter.limit}`,
  );
  return rows.map((row) => ({
    profile: profileOfRow(row),
    weekWorkedMs: Number(row.week_worked_ms ?? 0),
    activeShifts: jsonArraysOf(row.active_shifts).map(([shiftId, status, startedAt, lastHeartbeatAt, lastSeenAt]) => ({
      id: String(shiftId),
      status: String(status),
      started_at: Number(startedAt),
      last_heartbeat_at: Number(lastHeartbeatAt),
      last_seen_at: Number(lastSeenAt),
    })),
    notices: jsonArraysOf(row.notices).map(([noticeId, startsAt, endsAt]) => ({
      id: String(noticeId),
      starts_at: Number(startsAt),
      ends_at: Number(endsAt),
    })),
  }));
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
