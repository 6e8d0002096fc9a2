/**
 * Queries of the running totals (migration 0004). Writers take `db | trx`; every write of the totals runs in
 * the transaction of the change it records.
 */
import type { Environment } from '../../../shared/actor.ts';
import { sql, type RawBuilder } from 'kysely';
import { selectJsonRows, writeTogether, type RecordsetColumnType } from '../../../db/dialect.ts';
import type { Executor } from '../../../db/types.ts';
import type { Interval } from '../periods/period-math.ts';
import { timedOutShift } from '../shifts/rules.ts';
import { COMPLETED } from '../shifts/status.ts';
import type { BucketRun, CompletedSpan, TotalsDelta } from './buckets.ts';
import type { WorkedRow } from './reading.ts';

/** Rows per multi-row statement: bounds one statement's work, and its values, in a rebuild. */
const ROWS_PER_STATEMENT = 500;

/**
 * `statement` for the rows, ROWS_PER_STATEMENT at a time, each chunk a SELECT of `columns` from one JSON value (one
 * text whatever the chunk's length).
 */
function forRows(
  db: Executor,
  rows: readonly object[],
  columns: Readonly<Record<string, RecordsetColumnType>>,
  statement: (select: RawBuilder<unknown>) => RawBuilder<unknown>,
): RawBuilder<unknown>[] {
  const statements: RawBuilder<unknown>[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    statements.push(statement(selectJsonRows(db, rows.slice(i, i + ROWS_PER_STATEMENT), columns)));
  }
  return statements;
}

/** Versions of change rows kept per workspace: a cached ranking further behind is recomputed in full. */
export const CHANGES_KEPT = 4096;
/** Writers prune once every this many versions (one small range delete). */
const PRUNE_EVERY = 64;

/** The staff members a version changed (migration 0006), as a cached ranking reads them (findChanges). */
export interface ChangedStaff {
  readonly workspaceId: string;
  readonly version: number;
  readonly staffIds: ReadonlySet<string>;
}

/** A change of the totals, in the transaction that moved the workspaces' versions (lockWorkspacesForTotals, src/features/workspaces/upkeep.ts). */
export interface TotalsChange {
  readonly deltas: readonly TotalsDelta[];
  /** The longest-shift bounds to raise (none when shifts are taken out). */
  readonly longest: Iterable<LongestShift>;
  readonly changed: readonly ChangedStaff[];
}

/**
 * Records a change of the totals: adds the deltas (addToTotals), raises the bounds (raiseLongestShift) and records
 * which staff members each version changed. The three writes touch different tables and read nothing another
 * writes, so on PostgreSQL they go as one statement (writeTogether). Then rows a negative delta left all zero are
 * removed, and every PRUNE_EVERY versions the workspace's change rows older than CHANGES_KEPT versions.
 */
export async function recordTotalsChange(db: Executor, { deltas, longest, changed }: TotalsChange): Promise<void> {
  const rows = changed.flatMap((c) =>
    [...c.staffIds].sort().map((staffId) => ({ workspace_id: c.workspaceId, version: c.version, staff_id: staffId })),
  );
  await writeTogether(db, [
    ...totalsUpserts(db, deltas),
    ...longestShiftRaises(db, longest),
    ...forRows(
      db,
      rows,
      { workspace_id: 'text', version: 'bigint', staff_id: 'text' },
      (select) => sql`insert into activity_changes (workspace_id, version, staff_id)
${select}`,
    ),
  ]);
  await removeEmptyTotals(db, deltas);
  for (const change of changed) {
    if (change.version % PRUNE_EVERY !== 0) continue;
    await db
      .deleteFrom('activity_changes')
      .where('workspace_id', '=', change.workspaceId)
      .where('version', '<=', change.version - CHANGES_KEPT)
      .execute();
  }
}

/** The change rows (version and staff member) of the workspace's versions after `after` up to `upTo`. */
export async function findChanges(
  db: Executor,
  workspaceId: string,
  after: number,
  upTo: number,
): Promise<{ readonly version: number; readonly staff_id: string }[]> {
  return db
    .selectFrom('activity_changes')
    .select(['version', 'staff_id'])
    .where('workspace_id', '=', workspaceId)
    .where('version', '>', after)
    .where('version', '<=', upTo)
    .execute();
}

/** Adds the deltas to their rows (creating missing ones), one statement per chunk; rows left all zero are removed. */
export async function addToTotals(db: Executor, deltas: readonly TotalsDelta[]): Promise<void> {
  for (const statement of totalsUpserts(db, deltas)) await statement.execute(db);
  await removeEmptyTotals(db, deltas);
}

function totalsUpserts(db: Executor, deltas: readonly TotalsDelta[]): RawBuilder<unknown>[] {
  // In the rows' order (the table's key order: concurrent writers lock rows alike). An INSERT … SELECT with an
  // upsert clause needs a WHERE to be read as one (SQLite's grammar).
  return forRows(
    db,
    deltas,
    {
      workspace_id: 'text',
      environment: 'text',
      grain: 'text',
      bucket_start: 'bigint',
      staff_id: 'text',
      worked_ms: 'bigint',
      started_shifts: 'integer',
      carried_shifts: 'integer',
    },
    (select) => sql`insert into activity_totals
  (workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts)
${select}
where true
on conflict (workspace_id, environment, grain, bucket_start, staff_id) do update set
  worked_ms = activity_totals.worked_ms + excluded.worked_ms,
  started_shifts = activity_totals.started_shifts + excluded.started_shifts,
  carried_shifts = activity_totals.carried_shifts + excluded.carried_shifts`,
  );
}

/** Removes the rows that negative deltas (shifts taken out) may have left all zero. */
async function removeEmptyTotals(db: Executor, deltas: readonly TotalsDelta[]): Promise<void> {
  if (deltas.some((d) => d.worked_ms < 0 || d.started_shifts < 0 || d.carried_shifts < 0)) {
    const workspaces = [...new Set(deltas.map((d) => d.workspace_id))];
    await db
      .deleteFrom('activity_totals')
      .where('workspace_id', 'in', workspaces)
      .where('worked_ms', '=', 0)
      .where('started_shifts', '=', 0)
      .where('carried_shifts', '=', 0)
      .execute();
  }
}

/** A bound of the longest completed shift of a workspace and environment. */
export interface LongestShift {
  readonly workspaceId: string;
  readonly environment: Environment;
  readonly ms: number;
}

/** Raises the longest-shift bound of each workspace and environment to at least the given length. */
export async function raiseLongestShift(db: Executor, longest: Iterable<LongestShift>): Promise<void> {
  for (const statement of longestShiftRaises(db, longest)) await statement.execute(db);
}

function longestShiftRaises(db: Executor, longest: Iterable<LongestShift>): RawBuilder<unknown>[] {
  const rows = [...longest]
    .map((l) => ({ workspace_id: l.workspaceId, environment: l.environment, longest_shift_ms: l.ms }))
    .sort((a, b) => (a.workspace_id + a.environment < b.workspace_id + b.environment ? -1 : 1));
  return forRows(
    db,
    rows,
    { workspace_id: 'text', environment: 'text', longest_shift_ms: 'bigint' },
    (select) => sql`insert into activity_totals_extent (workspace_id, environment, longest_shift_ms)
${select}
where true
on conflict (workspace_id, environment) do update set longest_shift_ms = excluded.longest_shift_ms
where activity_totals_extent.longest_shift_ms < excluded.longest_shift_ms`,
  );
}

/** Removes every total of the workspace (before a rebuild). */
export async function clearTotals(db: Executor, workspaceId: string, staffIds?: readonly string[]): Promise<void> {
  let totals = db.deleteFrom('activity_totals').where('workspace_id', '=', workspaceId);
  if (staffIds !== undefined) {
    if (staffIds.length === 0) return;
    totals = totals.where('staff_id', 'in', [...staffIds]);
  } else {
    await db.deleteFrom('activity_totals_extent').where('workspace_id', '=', workspaceId).execute();
  }
  await totals.execute();
}

export async function findWorkspaceId(db: Executor, workspaceId: string): Promise<string | undefined> {
  const row = await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst();
  return row?.id;
}

export async function listWorkspaceIds(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('workspaces').select('id').orderBy('id').execute();
  return rows.map((row) => row.id);
}

/** Staff ids of the workspace after `after`, in id order: the rebuild's chunks. */
export async function staffIdsAfter(db: Executor, workspaceId: string, after: string | null, limit: number): Promise<string[]> {
  let query = db.selectFrom('staff').select('id').where('workspace_id', '=', workspaceId);
  if (after !== null) query = query.where('id', '>', after);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((row) => row.id);
}

/** Completed shifts of the workspace's given staff members (index shifts_staff_ended). */
export async function completedShiftsOf(db: Executor, workspaceId: string, staffIds: readonly string[]): Promise<CompletedSpan[]> {
  if (staffIds.length === 0) return [];
  const rows = await db
    .selectFrom('shifts')
    .select(['workspace_id', 'environment', 'staff_id', 'started_at', 'ended_at'])
    .where('staff_id', 'in', [...staffIds])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', COMPLETED)
    .where('ended_at', 'is not', null)
    .execute();
  return rows.map((row) => ({ ...row, ended_at: Number(row.ended_at) }));
}

// ---------------------------------------------------------------------------------------------------------
// Reads: one statement each, so a shift the sweep or a stop completes meanwhile is never counted twice nor missed.
// ---------------------------------------------------------------------------------------------------------

const NULL_TEXT = sql.raw('cast(null as text)');
const SHIFT_NULLS = sql.raw(
  'cast(null as text) as status, cast(null as bigint) as started_at, cast(null as bigint) as ended_at, ' +
    'cast(null as bigint) as last_heartbeat_at, cast(null as bigint) as last_seen_at, ' +
    'cast(null as text) as universe_id, cast(null as text) as place_id, cast(null as text) as server_id',
);
/** The bucket columns of a shift row. */
const BUCKET_NULLS = sql.raw(
  'cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, ' +
    'cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts',
);
const SHIFT_COLUMNS = sql.raw('status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id');
const COLUMN_NAMES = sql.raw(
  'src, staff_id, id, grain, bucket_start, worked_ms, started_shifts, carried_shifts, ' +
    'status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id',
);

/** Which rows a read sees: one workspace and environment, optionally one staff member. */
export interface TotalsScope {
  readonly workspaceId: string;
  readonly environment: Environment;
  readonly staffId?: string;
  /** Only these staff members (a ranking brought up to date); never empty. */
  readonly staffIds?: readonly string[];
}

function scopeWhere(scope: TotalsScope): RawBuilder<unknown> {
  const staff =
    scope.staffId !== undefined
      ? sql`staff_id = ${scope.staffId} and `
      : scope.staffIds !== undefined
        ? sql`staff_id in (${sql.join(scope.staffIds.map((id) => sql`${id}`))}) and `
        : sql``;
  return sql`${staff}environment = ${scope.environment} and workspace_id = ${scope.workspaceId}`;
}

/** Completed shifts that may overlap an edge: the longest-shift bound limits the scan of `ended_at`. */
function edgeShifts(scope: TotalsScope, edge: Interval): RawBuilder<unknown> {
  const longest = sql`(select coalesce(max(longest_shift_ms), 0) from activity_totals_extent where environment = ${scope.environment} and workspace_id = ${scope.workspaceId})`;
  return sql`select 2 as src, staff_id, id, ${BUCKET_NULLS}, ${SHIFT_COLUMNS}
    from shifts where ${scopeWhere(scope)} and status = 'completed'
      and ended_at >= ${edge.start} and ended_at <= ${edge.end} + ${longest} and started_at < ${edge.end}`;
}

function unionAll(parts: readonly RawBuilder<unknown>[]): RawBuilder<WorkedRow> {
  return sql<WorkedRow>`select ${COLUMN_NAMES} from (${sql.join(parts, sql` union all `)}) as worked`;
}

async function run(db: Executor, query: RawBuilder<WorkedRow>): Promise<WorkedRow[]> {
  // PostgreSQL answers bigint and numeric as numbers (the store's parsers); SQLite answers numbers. A read's text
  // depends only on its periods' shape (runs, edges), of which there are few: the store prepares each once
  // (src/db/pg-dialect.ts).
  return (await query.execute(db)).rows;
}

/**
 * One staff member: their bucket rows of every run, all their active shifts (live and timed out), and their
 * completed shifts at every edge.
 */
export async function readStaffWorked(
  db: Executor,
  scope: TotalsScope & { readonly staffId: string },
  runs: readonly BucketRun[],
  edges: readonly Interval[],
): Promise<WorkedRow[]> {
  const parts: RawBuilder<unknown>[] = [];
  if (runs.length > 0) {
    const runsWhere = sql.join(
      runs.map((r) => sql`(grain = ${r.grain} and bucket_start >= ${r.from} and bucket_start < ${r.to})`),
      sql` or `,
    );
    parts.push(sql`select 0 as src, staff_id, ${NULL_TEXT} as id, grain, bucket_start, worked_ms, started_shifts, carried_shifts, ${SHIFT_NULLS}
      from activity_totals where ${scopeWhere(scope)} and (${runsWhere})`);
  }
  parts.push(sql`select 1 as src, staff_id, id, ${BUCKET_NULLS}, ${SHIFT_COLUMNS}
    from shifts where ${scopeWhere(scope)} and ended_at is null and status = 'active'`);
  for (const edge of edges) parts.push(edgeShifts(scope, edge));
  return run(db, unionAll(parts));
}

/**
 * Every staff member of the workspace with worked time in the period: the run's buckets summed per staff member
 * (carried shifts of its first bucket folded into `started_shifts`), timed-out active shifts overlapping the
 * period, and completed shifts at its edges. Staff without any have no row.
 */
export async function readWorkspaceWorked(
  db: Executor,
  scope: TotalsScope,
  plan: { readonly period: Interval; readonly run: BucketRun | null; readonly edges: readonly Interval[] },
  timedOutBefore: number,
): Promise<WorkedRow[]> {
  const parts: RawBuilder<unknown>[] = [];
  const { run: bucketRun, period } = plan;
  if (bucketRun !== null) {
    const head = sql`select 0 as src, staff_id, ${NULL_TEXT} as id, grain, cast(${bucketRun.from} as bigint) as bucket_start`;
    const single = bucketRun.grain !== 'day' || bucketRun.to - bucketRun.from <= 26 * 60 * 60 * 1000;
    parts.push(
      single
        ? sql`${head}, worked_ms, started_shifts + carried_shifts as started_shifts, 0 as carried_shifts, ${SHIFT_NULLS}
            from activity_totals where ${scopeWhere(scope)} and grain = ${bucketRun.grain} and bucket_start = ${bucketRun.from}`
        : sql`${head}, sum(worked_ms) as worked_ms,
              sum(started_shifts) + sum(case when bucket_start = ${bucketRun.from} then carried_shifts else 0 end) as started_shifts,
              0 as carried_shifts, ${SHIFT_NULLS}
            from activity_totals where ${scopeWhere(scope)} and grain = ${bucketRun.grain}
              and bucket_start >= ${bucketRun.from} and bucket_start < ${bucketRun.to}
            group by staff_id, grain`,
    );
  }
  parts.push(sql`select 1 as src, staff_id, id, ${BUCKET_NULLS}, ${SHIFT_COLUMNS}
    from shifts where ${scopeWhere(scope)} and ${timedOutShift(timedOutBefore, 'scan')} and started_at < ${period.end}
      and last_heartbeat_at >= ${period.start}`);
  for (const edge of plan.edges) parts.push(edgeShifts(scope, edge));
  return run(db, unionAll(parts));
}
