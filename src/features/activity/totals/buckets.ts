/**
 * Buckets of the running totals (pure functions): the local days, weeks and months of a workspace time zone a
 * completed shift contributes to, and how a reporting period decomposes into whole buckets and partial edges.
 *
 * A completed shift `[startedAt, endedAt)` adds, to every bucket it overlaps, its milliseconds clipped to the
 * bucket; it is `started` in the bucket containing its start and `carried` into every later bucket it reaches
 * (it started before that bucket's start and ends after it). A zero-length shift is `started` in the bucket
 * containing it and adds nothing else; a shift ending before it starts counts nowhere (docs/API.md, "Activity
 * reports").
 */
import type { Environment } from '../../../shared/actor.ts';
import { clipMs, type Interval } from '../periods/period-math.ts';
import { dayPeriod, monthPeriod, weekPeriod, type Period } from '../periods/periods.ts';
import { DAY_MS } from '../../../shared/clock.ts';
import { compareText } from '../../../shared/text.ts';

const GRAINS = ['day', 'week', 'month'] as const;
export type Grain = (typeof GRAINS)[number];

const PERIOD_OF: Record<Grain, (now: number, timeZone: string) => Period> = {
  day: dayPeriod,
  week: weekPeriod,
  month: monthPeriod,
};

/**
 * The consecutive buckets of one grain and zone seen so far (each bucket ends where the next starts), extended
 * as instants outside them are asked for, and searched by bisection: zone arithmetic (Temporal) runs once per
 * bucket, not once per shift, which is what makes a rebuild over a long history cheap. Zone rules do not change
 * while the process runs, so the line is exact. An instant very far from the line is computed directly.
 */
class BucketLine {
  private readonly starts: number[] = [];
  private end = 0;

  private readonly grain: Grain;
  private readonly timeZone: string;
  constructor(grain: Grain, timeZone: string) {
    this.grain = grain;
    this.timeZone = timeZone;
  }

  containing(instant: number): Interval {
    const compute = PERIOD_OF[this.grain];
    if (this.starts.length === 0) {
      const period = compute(instant, this.timeZone);
      this.starts.push(period.start);
      this.end = period.end;
    }
    const first = this.starts[0] ?? 0;
    if (instant < first - MAX_EXTENSION_MS || instant >= this.end + MAX_EXTENSION_MS) return compute(instant, this.timeZone);
    if (instant < first) {
      const before: number[] = [];
      let start = first;
      while (instant < start) {
        start = compute(start - 1, this.timeZone).start;
        before.push(start);
      }
      this.starts.unshift(...before.reverse());
    }
    while (instant >= this.end) {
      const next = compute(this.end, this.timeZone);
      this.starts.push(next.start);
      this.end = next.end;
    }
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.starts[mid] ?? 0) <= instant) lo = mid;
      else hi = mid - 1;
    }
    return { start: this.starts[lo] ?? 0, end: this.starts[lo + 1] ?? this.end };
  }
}

/** How far beyond the known buckets a line grows to reach an instant (about 11 years). */
const MAX_EXTENSION_MS = 4000 * DAY_MS;
const lines = new Map<string, BucketLine>();

/** The bucket of `grain` in `timeZone` containing `instant`. */
function bucketContaining(grain: Grain, instant: number, timeZone: string): Interval {
  const key = `${grain}|${timeZone}`;
  let line = lines.get(key);
  if (line === undefined) {
    line = new BucketLine(grain, timeZone);
    lines.set(key, line);
  }
  return line.containing(instant);
}

/** What one completed shift adds to one bucket. */
interface Contribution {
  readonly grain: Grain;
  readonly bucketStart: number;
  readonly workedMs: number;
  readonly started: number;
  readonly carried: number;
}

/** Every bucket contribution of the completed shift `[startedAt, endedAt)` in `timeZone`. */
function shiftContributions(startedAt: number, endedAt: number, timeZone: string): Contribution[] {
  if (endedAt < startedAt) return [];
  const out: Contribution[] = [];
  for (const grain of GRAINS) {
    let bucket = bucketContaining(grain, startedAt, timeZone);
    out.push({ grain, bucketStart: bucket.start, workedMs: clipMs(startedAt, endedAt, bucket), started: 1, carried: 0 });
    while (bucket.end < endedAt) {
      bucket = bucketContaining(grain, bucket.end, timeZone);
      out.push({ grain, bucketStart: bucket.start, workedMs: clipMs(startedAt, endedAt, bucket), started: 0, carried: 1 });
    }
  }
  return out;
}

/** A completed shift as the totals see it. */
export interface CompletedSpan {
  readonly workspace_id: string;
  readonly environment: Environment;
  readonly staff_id: string;
  readonly started_at: number;
  readonly ended_at: number;
}

/** One row's change: the sums to add to (or, negated, take from) a bucket of one staff member. */
export interface TotalsDelta {
  readonly workspace_id: string;
  readonly environment: Environment;
  readonly grain: Grain;
  readonly bucket_start: number;
  readonly staff_id: string;
  worked_ms: number;
  started_shifts: number;
  carried_shifts: number;
}

/**
 * The changes completed shifts make to the totals, one per row key, sorted by key (so concurrent writers lock
 * rows in one order). `sign` -1 undoes the shifts.
 */
export function totalsDeltas(
  shifts: readonly CompletedSpan[],
  zoneOf: (workspaceId: string) => string,
  sign: 1 | -1 = 1,
): TotalsDelta[] {
  const byKey = new Map<string, TotalsDelta>();
  for (const shift of shifts) {
    const zone = zoneOf(shift.workspace_id);
    const prefix = `${shift.workspace_id}|${shift.environment}|${shift.staff_id}|`;
    for (const c of shiftContributions(shift.started_at, shift.ended_at, zone)) {
      const key = prefix + c.grain + c.bucketStart;
      let delta = byKey.get(key);
      if (delta === undefined) {
        delta = {
          workspace_id: shift.workspace_id,
          environment: shift.environment,
          grain: c.grain,
          bucket_start: c.bucketStart,
          staff_id: shift.staff_id,
          worked_ms: 0,
          started_shifts: 0,
          carried_shifts: 0,
        };
        byKey.set(key, delta);
      }
      delta.worked_ms += sign * c.workedMs;
      delta.started_shifts += sign * c.started;
      delta.carried_shifts += sign * c.carried;
    }
  }
  return [...byKey.values()].sort(compareRowKeys);
}

/** The order of the table's primary key. */
function compareRowKeys(a: TotalsDelta, b: TotalsDelta): number {
  return (
    compareText(a.workspace_id, b.workspace_id) ||
    compareText(a.environment, b.environment) ||
    compareText(a.grain, b.grain) ||
    a.bucket_start - b.bucket_start ||
    compareText(a.staff_id, b.staff_id)
  );
}

/** The longest completed shift per workspace and environment among `shifts`. */
export function longestShifts(shifts: readonly CompletedSpan[]): Map<string, { workspaceId: string; environment: Environment; ms: number }> {
  const out = new Map<string, { workspaceId: string; environment: Environment; ms: number }>();
  for (const shift of shifts) {
    const key = `${shift.workspace_id}\u0000${shift.environment}`;
    const ms = Math.max(0, shift.ended_at - shift.started_at);
    const seen = out.get(key);
    if (seen === undefined) out.set(key, { workspaceId: shift.workspace_id, environment: shift.environment, ms });
    else seen.ms = Math.max(seen.ms, ms);
  }
  return out;
}

/** Buckets `[from, to)` of one grain (bucket starts in that range) that together cover a run of the period. */
export interface BucketRun {
  readonly grain: Grain;
  readonly from: number;
  readonly to: number;
}

/**
 * A period read from the totals: `run` covers its whole buckets (null when it holds none); the `edges` before
 * and after the run are read from raw shifts.
 */
export interface PeriodPlan {
  readonly period: Interval;
  readonly run: BucketRun | null;
  readonly edges: readonly Interval[];
}

/**
 * How the totals serve `period` in `timeZone`: a day, week or month is one bucket; any other range is its whole
 * local days plus raw edges (the whole range raw when it holds no whole day).
 */
export function planPeriod(period: Interval, timeZone: string): PeriodPlan {
  for (const grain of ['week', 'month', 'day'] as const) {
    const bucket = bucketContaining(grain, period.start, timeZone);
    if (bucket.start === period.start && bucket.end === period.end) {
      return { period, run: { grain, from: period.start, to: period.end }, edges: [] };
    }
  }
  const first = bucketContaining('day', period.start, timeZone);
  const from = first.start === period.start ? period.start : first.end;
  const to = bucketContaining('day', period.end, timeZone).start;
  if (from >= to) return { period, run: null, edges: [period] };
  const edges: Interval[] = [];
  if (period.start < from) edges.push({ start: period.start, end: from });
  if (to < period.end) edges.push({ start: to, end: period.end });
  return { period, run: { grain: 'day', from, to }, edges };
}
