/**
 * Reports from the totals (pure functions): a period's worked milliseconds and completed-shift count for one
 * staff member, from the rows one read returns (bucket rows, active shifts, completed shifts at the edges).
 */
import { clipMs, overlaps, type Interval } from '../periods/period-math.ts';
import { isStale } from '../shifts/rules.ts';
import type { PeriodPlan } from './buckets.ts';

/** Where a read row comes from. */
export const SOURCE = { totals: 0, active: 1, edge: 2 } as const;

/** One row of a totals read: a bucket (source 0) or a shift (sources 1 and 2); what does not apply is null. */
export interface WorkedRow {
  readonly src: number;
  readonly staff_id: string;
  readonly id: string | null;
  readonly grain: string | null;
  readonly bucket_start: number | null;
  readonly worked_ms: number | null;
  readonly started_shifts: number | null;
  readonly carried_shifts: number | null;
  readonly status: string | null;
  readonly started_at: number | null;
  readonly ended_at: number | null;
  readonly last_heartbeat_at: number | null;
  readonly last_seen_at: number | null;
  readonly universe_id: string | null;
  readonly place_id: string | null;
  readonly server_id: string | null;
}

export interface Worked {
  readonly totalMs: number;
  readonly completedShifts: number;
}

/**
 * Worked time of a period from one staff member's rows: the run's buckets (carried shifts of its first bucket
 * included), timed-out active shifts (over as of their last heartbeat, not yet in the totals) clipped to the
 * whole period, and completed shifts clipped to the edges (counted there unless the run counts them).
 */
export function workedInPlan(plan: PeriodPlan, rows: readonly WorkedRow[], timedOutBefore: number): Worked {
  const { run, period } = plan;
  const runInterval: Interval | null = run === null ? null : { start: run.from, end: run.to };
  let totalMs = 0;
  let count = 0;
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.src === SOURCE.totals) {
      if (run === null || row.grain !== run.grain || row.bucket_start === null) continue;
      if (row.bucket_start < run.from || row.bucket_start >= run.to) continue;
      totalMs += Number(row.worked_ms ?? 0);
      count += Number(row.started_shifts ?? 0);
      if (row.bucket_start === run.from) count += Number(row.carried_shifts ?? 0);
    } else if (row.src === SOURCE.active) {
      const { status, last_seen_at } = row;
      if (status === null || last_seen_at === null || !isStale({ status, last_seen_at }, timedOutBefore)) continue;
      const start = Number(row.started_at);
      const end = Number(row.last_heartbeat_at);
      if (!overlaps(start, end, period)) continue;
      totalMs += clipMs(start, end, period);
      count += 1;
    } else if (row.src === SOURCE.edge && row.id !== null && !seen.has(row.id)) {
      seen.add(row.id);
      const start = Number(row.started_at);
      const end = Number(row.ended_at);
      if (!overlaps(start, end, period)) continue;
      for (const edge of plan.edges) totalMs += clipMs(start, end, edge);
      if (runInterval === null || !overlaps(start, end, runInterval)) count += 1;
    }
  }
  return { totalMs, completedShifts: count };
}

/** Rows grouped by staff member. */
export function rowsByStaff<R extends { readonly staff_id: string }>(rows: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const row of rows) {
    const list = out.get(row.staff_id);
    if (list) list.push(row);
    else out.set(row.staff_id, [row]);
  }
  return out;
}
