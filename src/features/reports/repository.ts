/**
 * Report queries. Every query is scoped to one workspace (or one of its staff members) and one environment.
 *
 * A shift counts as worked time once it is completed, or once it has timed out (an active shift nothing was
 * received for in more than SHIFT_TIMEOUT_SECONDS): such a shift *is* over, ending at its `last_heartbeat_at`,
 * even before the sweep records it. Reading both kinds in one statement gives one consistent snapshot, so a
 * shift the sweep completes meanwhile is never counted twice nor missed.
 */
import { sql, type RawBuilder } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Dialect, Executor } from '../../db/types.js';
import type { Interval } from '../activity/metrics.js';

// Literals (not bound parameters) let both stores match the predicates of the partial shift indexes.
const COMPLETED = sql.lit('completed');
const ACTIVE = sql.lit('active');
const APPROVED = sql.lit('approved');

/** Which staff data a read sees: one workspace, one environment. */
export interface ReportAudience {
  readonly workspaceId: string;
  readonly environment: string;
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

const STAFF_SHIFT_COLUMNS = [
  'id',
  'status',
  'started_at',
  'ended_at',
  'last_heartbeat_at',
  'last_seen_at',
  'universe_id',
  'place_id',
  'server_id',
] as const;

/**
 * The staff member's completed shifts that may overlap `window` (`ended_at >= start`, so a zero-length shift at
 * the start is included, and `started_at < end`; index shifts_staff_ended), plus all their active shifts, in one
 * statement. Callers apply the exact overlap rule per period.
 */
export async function findStaffShifts(
  db: Executor,
  audience: ReportAudience,
  staffId: string,
  window: Interval,
): Promise<StaffShiftRow[]> {
  return selectStaffShifts.rows(db, {
    staffId,
    environment: audience.environment,
    workspaceId: audience.workspaceId,
    start: window.start,
    end: window.end,
  });
}

// Every summary and per-staff report runs it: built once (src/db/prepared.ts).
const selectStaffShifts = prepared<
  { staffId: string; environment: string; workspaceId: string; start: number; end: number },
  StaffShiftRow
>((db, p) => {
  const base = () =>
    db
      .selectFrom('shifts')
      .select(STAFF_SHIFT_COLUMNS)
      .where('staff_id', '=', p('staffId'))
      .where('environment', '=', p('environment'))
      .where('workspace_id', '=', p('workspaceId'));
  const completed = base()
    .where('ended_at', '>=', p('start'))
    .where('started_at', '<', p('end'))
    .where('status', '=', COMPLETED);
  const active = base().where('ended_at', 'is', null).where('status', '=', ACTIVE);
  return completed.unionAll(active);
});

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

export interface StaffTotalsRow {
  readonly staff_id: string;
  /** Summed milliseconds of the shifts clipped to the period. */
  readonly total_ms: number;
  readonly shift_count: number;
}

/** `least`/`greatest` of two values: scalar `min`/`max` on SQLite, `LEAST`/`GREATEST` on PostgreSQL. */
function bounds(dialect: Dialect): { least: RawBuilder<unknown>; greatest: RawBuilder<unknown> } {
  return dialect === 'postgres'
    ? { least: sql.raw('least'), greatest: sql.raw('greatest') }
    : { least: sql.raw('min'), greatest: sql.raw('max') };
}

/**
 * Per staff member of the workspace: milliseconds worked inside `[start, end)` and how many shifts overlap it.
 * One GROUP BY over completed shifts (index shifts_completed_workspace: range on `ended_at`, covering
 * `started_at` and `staff_id`) and timed-out active ones (index shifts_active_by_start). A shift overlaps when
 * `started_at < end` and `ended_at > start`, a zero-length one when `start <= started_at < end`. Staff without
 * such shifts have no row.
 */
export async function sumStaffTotals(
  db: Executor,
  dialect: Dialect,
  audience: ReportAudience,
  period: Interval,
  timedOutBefore: number,
): Promise<StaffTotalsRow[]> {
  const { least, greatest } = bounds(dialect);
  const { start, end } = period;
  const completed = db
    .selectFrom('shifts')
    .select(['staff_id', sql<number>`${least}(ended_at, ${end}) - ${greatest}(started_at, ${start})`.as('clipped_ms')])
    .where('workspace_id', '=', audience.workspaceId)
    .where('environment', '=', audience.environment)
    .where('status', '=', COMPLETED)
    .where('ended_at', '>=', start)
    .where('started_at', '<', end)
    .where((eb) => eb.or([eb('ended_at', '>', start), eb('started_at', '=', start)]));
  const timedOut = db
    .selectFrom('shifts')
    .select([
      'staff_id',
      sql<number>`${least}(last_heartbeat_at, ${end}) - ${greatest}(started_at, ${start})`.as('clipped_ms'),
    ])
    .where('workspace_id', '=', audience.workspaceId)
    .where('environment', '=', audience.environment)
    .where('status', '=', ACTIVE)
    .where('started_at', '<', end)
    .where('last_seen_at', '<', timedOutBefore)
    .where('last_heartbeat_at', '>=', start)
    .where((eb) => eb.or([eb('last_heartbeat_at', '>', start), eb('started_at', '=', start)]));
  const rows = await db
    .selectFrom(completed.unionAll(timedOut).as('worked'))
    .select((eb) => [
      'worked.staff_id',
      eb.fn.sum<number | string>('worked.clipped_ms').as('total_ms'),
      eb.fn.countAll<number | string>().as('shift_count'),
    ])
    .groupBy('worked.staff_id')
    .execute();
  // PostgreSQL answers SUM and COUNT as numeric/bigint; the store parses them, Number() keeps the type honest.
  return rows.map((row) => ({
    staff_id: row.staff_id,
    total_ms: Number(row.total_ms),
    shift_count: Number(row.shift_count),
  }));
}

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
    .where('status', '=', ACTIVE)
    .where('last_seen_at', '>=', staleBefore)
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

/** Approved inactivity notices of the given staff members overlapping `[start, end)` (index inactivity_notices_staff). */
export async function findApprovedNotices(
  db: Executor,
  staffIds: readonly string[],
  period: Interval,
): Promise<NoticeRow[]> {
  if (staffIds.length === 0) return [];
  return db
    .selectFrom('inactivity_notices')
    .select(['id', 'staff_id', 'starts_at', 'ends_at', 'reason'])
    .where('staff_id', 'in', [...staffIds])
    .where('status', '=', APPROVED)
    .where('starts_at', '<', period.end)
    .where('ends_at', '>', period.start)
    .execute();
}
