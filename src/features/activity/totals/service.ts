/**
 * Running totals of completed time: kept in the transaction of every change that completes a shift,
 * rebuilt from the shifts when they cannot be trusted (a time-zone change, an upgrade, an operator's request),
 * and read by the reports.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import type { Database, Executor } from '../../../db/types.ts';
import { count, noProgress, type Progress } from '../../../shared/progress.ts';
import { lockWorkspacesForTotals } from '../../workspaces/upkeep.ts';
import { reportingTimeZone } from '../periods/periods.ts';
import { longestShifts, totalsDeltas, type BucketRun, type CompletedSpan, type PeriodPlan } from './buckets.ts';
import {
  addToTotals,
  clearTotals,
  completedShiftsOf,
  findWorkspaceId,
  listWorkspaceIds,
  raiseLongestShift,
  readStaffWorked,
  recordTotalsChange,
  findChanges,
  CHANGES_KEPT,
  readWorkspaceWorked,
  staffIdsAfter,
  type TotalsScope,
} from './repository.ts';
import { rowsByStaff, SOURCE, workedInPlan, type Worked, type WorkedRow } from './reading.ts';

export type { CompletedSpan } from './buckets.ts';
export type { Worked, WorkedRow } from './reading.ts';
export { planPeriod } from './buckets.ts';
export { rowsByStaff } from './reading.ts';

/**
 * Adds completed shifts to the totals, in the caller's transaction (the one that completed them, or imported
 * them). Locks the shifts' workspaces' rows (lockWorkspacesForTotals): every completion calls it right after the
 * statement that completed its shifts, whose rows it then holds (src/features/activity/shifts/lifecycle.ts, `complete`).
 */
export async function applyCompletedShifts(trx: Executor, shifts: readonly CompletedSpan[]): Promise<void> {
  await changeTotals(trx, shifts, 1);
}

/** Takes completed shifts back out of the totals (the exact inverse of applyCompletedShifts). */
export async function undoCompletedShifts(trx: Executor, shifts: readonly CompletedSpan[]): Promise<void> {
  await changeTotals(trx, shifts, -1);
}

async function changeTotals(trx: Executor, shifts: readonly CompletedSpan[], sign: 1 | -1): Promise<void> {
  if (shifts.length === 0) return;
  const zones = await lockWorkspacesForTotals(
    trx,
    shifts.map((s) => s.workspace_id),
  );
  const zoneOf = (workspaceId: string) => reportingTimeZone(zones.get(workspaceId)?.timezone);
  // Which staff members the new version changed: a cached ranking recomputes only them (see changedStaff).
  const staffOf = new Map<string, Set<string>>();
  for (const shift of shifts) {
    const set = staffOf.get(shift.workspace_id);
    if (set) set.add(shift.staff_id);
    else staffOf.set(shift.workspace_id, new Set([shift.staff_id]));
  }
  await recordTotalsChange(trx, {
    deltas: totalsDeltas(shifts, zoneOf, sign),
    longest: sign === 1 ? longestShifts(shifts).values() : [],
    changed: [...staffOf].flatMap(([workspaceId, staffIds]) => {
      const locked = zones.get(workspaceId);
      return locked === undefined ? [] : [{ workspaceId, version: locked.version, staffIds }];
    }),
  });
}

/** Staff members per rebuild step: one read of their shifts and a few multi-row writes. */
const REBUILD_STAFF_CHUNK = 100;

export interface RebuildResult {
  readonly workspaceId: string;
  readonly shifts: number;
}

/**
 * Rebuilds one workspace's totals from its completed shifts, inside `trx` (the caller's transaction: a
 * time-zone change rebuilds in its own). Works through the staff in chunks and yields to the event loop between
 * them, so no step holds the loop for long.
 */
export async function rebuildWorkspaceTotals(trx: Executor, workspaceId: string): Promise<RebuildResult> {
  // The version this moves to has no change rows: every cached ranking of the workspace is computed afresh.
  const zones = await lockWorkspacesForTotals(trx, [workspaceId]);
  const locked = zones.get(workspaceId);
  if (locked === undefined) return { workspaceId, shifts: 0 };
  const zone = reportingTimeZone(locked.timezone);
  await clearTotals(trx, workspaceId);
  let shifts = 0;
  let after: string | null = null;
  for (;;) {
    const staffIds = await staffIdsAfter(trx, workspaceId, after, REBUILD_STAFF_CHUNK);
    if (staffIds.length === 0) break;
    after = staffIds[staffIds.length - 1] ?? null;
    const completed = await completedShiftsOf(trx, workspaceId, staffIds);
    shifts += completed.length;
    await addToTotals(trx, totalsDeltas(completed, () => zone));
    await raiseLongestShift(trx, longestShifts(completed).values());
    await yieldToEventLoop();
  }
  return { workspaceId, shifts };
}

/** What a rebuild needs of the store: reads, and its writer (one transaction per workspace). */
export interface RebuildDeps {
  readonly db: Executor;
  readonly write: <T>(job: (trx: Transaction<Database>) => Promise<T>) => Promise<T>;
}

/** Rebuilds every workspace's totals (or the one given), one transaction per workspace. */
export async function rebuildTotals(
  { db, write }: RebuildDeps,
  workspaceId?: string,
  progress: Progress = noProgress,
): Promise<RebuildResult[]> {
  const ids = workspaceId === undefined ? await listWorkspaceIds(db) : [workspaceId];
  const results: RebuildResult[] = [];
  let shifts = 0;
  for (const [index, id] of ids.entries()) {
    progress(`${index}/${ids.length} workspaces, ${count(shifts)} shifts`);
    const result = await write((trx) => rebuildWorkspaceTotals(trx, id));
    shifts += result.shifts;
    results.push(result);
  }
  progress(`${ids.length}/${ids.length} workspaces, ${count(shifts)} shifts`);
  return results;
}

// ---------------------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------------------

export interface StaffWorked {
  /** Worked time per requested period, in request order. */
  readonly periods: Worked[];
  /** The staff member's active shift rows (live and timed out), for the caller to show the live one. */
  readonly active: WorkedRow[];
}

/** One staff member's worked time in several periods (one statement), plus their active shifts. */
export async function staffWorked(
  db: Executor,
  scope: TotalsScope & { readonly staffId: string },
  plans: readonly PeriodPlan[],
  timedOutBefore: number,
): Promise<StaffWorked> {
  const runs = plans.map((p) => p.run).filter((r): r is BucketRun => r !== null);
  const edges = plans.flatMap((p) => p.edges);
  const rows = await readStaffWorked(db, scope, runs, edges);
  return {
    periods: plans.map((plan) => workedInPlan(plan, rows, timedOutBefore)),
    active: rows.filter((row) => row.src === SOURCE.active),
  };
}

/** An active shift's status and instants, as a read that selects a staff member's active shifts itself gives them. */
export interface ActiveShiftTimes {
  readonly id: string;
  readonly status: string;
  readonly started_at: number;
  readonly last_heartbeat_at: number;
  readonly last_seen_at: number;
}

/**
 * Worked milliseconds of a period the totals keep as one bucket (`plan` without edges), from the staff member's
 * worked milliseconds in that bucket and their active shifts (a timed-out one counts up to its last heartbeat), for
 * a read that selects them beside other rows (the roster's page, activity/roster): computed by workedInPlan from
 * the rows a totals read gives, so it is the leaderboard's figure by construction.
 */
export function workedMsInBucket(
  plan: PeriodPlan,
  staffId: string,
  bucketWorkedMs: number,
  active: readonly ActiveShiftTimes[],
  timedOutBefore: number,
): number {
  const { run } = plan;
  if (run === null || plan.edges.length > 0) throw new Error('workedMsInBucket reads a period of one bucket');
  // Without active shifts the bucket is the whole of it (workedInPlan would sum that one row).
  if (active.length === 0) return bucketWorkedMs;
  const rows: WorkedRow[] = [
    {
      ...NO_SHIFT,
      src: SOURCE.totals,
      staff_id: staffId,
      id: null,
      grain: run.grain,
      bucket_start: run.from,
      worked_ms: bucketWorkedMs,
      started_shifts: 0,
      carried_shifts: 0,
    },
    ...active.map((shift) => ({
      ...NO_BUCKET,
      src: SOURCE.active,
      staff_id: staffId,
      id: shift.id,
      status: shift.status,
      started_at: shift.started_at,
      ended_at: null,
      last_heartbeat_at: shift.last_heartbeat_at,
      last_seen_at: shift.last_seen_at,
      universe_id: null,
      place_id: null,
      server_id: null,
    })),
  ];
  return workedInPlan(plan, rows, timedOutBefore).totalMs;
}

const NO_SHIFT = {
  status: null,
  started_at: null,
  ended_at: null,
  last_heartbeat_at: null,
  last_seen_at: null,
  universe_id: null,
  place_id: null,
  server_id: null,
} as const;
const NO_BUCKET = { grain: null, bucket_start: null, worked_ms: null, started_shifts: null, carried_shifts: null } as const;

/** Worked time of every staff member of the workspace with any in the period (one statement). */
export async function workspaceWorked(
  db: Executor,
  scope: TotalsScope,
  plan: PeriodPlan,
  timedOutBefore: number,
): Promise<Map<string, Worked>> {
  const rows = await readWorkspaceWorked(db, scope, plan, timedOutBefore);
  const out = new Map<string, Worked>();
  for (const [staffId, staffRows] of rowsByStaff(rows)) out.set(staffId, workedInPlan(plan, staffRows, timedOutBefore));
  return out;
}

/**
 * The staff members whose worked time the workspace's versions after `after` up to `upTo` changed, or null when
 * that is not known: a version without change rows (it changed what no row names), or one pruned. The caller
 * then computes in full.
 */
export async function changedStaff(
  db: Executor,
  workspaceId: string,
  after: number,
  upTo: number,
): Promise<string[] | null> {
  if (upTo <= after) return [];
  if (upTo - after > CHANGES_KEPT) return null;
  const rows = await findChanges(db, workspaceId, after, upTo);
  const versions = new Set(rows.map((row) => Number(row.version)));
  if (versions.size !== upTo - after) return null;
  return [...new Set(rows.map((row) => row.staff_id))];
}

/** Whether a workspace with this id exists. */
export async function workspaceExists(db: Executor, workspaceId: string): Promise<boolean> {
  return (await findWorkspaceId(db, workspaceId)) !== undefined;
}
