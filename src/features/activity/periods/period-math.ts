/**
 * Activity arithmetic (docs/API.md, "Activity reports"): clipping shifts to periods, whole minutes, period requirements,
 * inactivity-notice waivers and progress percentages. Pure functions over epoch milliseconds and minutes.
 */
import { calendarDays, type Period } from './periods.ts';
import { DAY_MS } from '../../../shared/clock.ts';

const WEEK_MS = 7 * DAY_MS;

/** A half-open interval `[start, end)` of epoch milliseconds, e.g. an inactivity notice. */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

/** How a requirement scales: by local calendar days (named periods) or by elapsed time (custom ranges). */
export type RequirementScaling = 'calendar' | 'custom';

/** Milliseconds of `[shiftStart, shiftEnd)` that fall inside the period; 0 when they do not overlap. */
export function clipMs(shiftStart: number, shiftEnd: number, period: Interval): number {
  return Math.max(0, Math.min(shiftEnd, period.end) - Math.max(shiftStart, period.start));
}

/**
 * Whether a completed shift counts toward the period: `startedAt < end` and `endedAt > start`; a zero-length
 * shift counts when `start <= startedAt < end`. A shift ending before it starts never counts.
 */
export function overlaps(shiftStart: number, shiftEnd: number, period: Interval): boolean {
  if (shiftEnd === shiftStart) return period.start <= shiftStart && shiftStart < period.end;
  return shiftEnd > shiftStart && shiftStart < period.end && shiftEnd > period.start;
}

/** Whole minutes in `seconds`, rounded down. */
export function wholeMinutes(seconds: number): number {
  return Math.floor(seconds / 60);
}

/** Whole seconds in `ms`, rounded down (`totalSeconds` is the floor of the summed clipped milliseconds). */
export function totalSecondsFromMs(ms: number): number {
  return Math.floor(ms / 1000);
}

/**
 * The requirement for a period in (unrounded) minutes: weekly × calendar days / 7 for named periods,
 * weekly × elapsed time / one week for custom ranges.
 */
export function requirementForPeriod(weeklyMinutes: number, period: Period, scaling: RequirementScaling): number {
  if (scaling === 'custom') return (weeklyMinutes * (period.end - period.start)) / WEEK_MS;
  return (weeklyMinutes * calendarDays(period)) / 7;
}

/**
 * Rounds down, treating a value within float noise of an integer as that integer (so 119.99999999999999,
 * the product of an exact 120, floors to 120 rather than 119).
 */
function floorTolerant(value: number): number {
  const nearest = Math.round(value);
  if (Math.abs(value - nearest) <= 1e-9 * Math.max(1, Math.abs(value))) return nearest;
  return Math.floor(value);
}

/** Elapsed length of the period in ms (0 for an empty or inverted one). */
function periodLength(period: Period): number {
  return Math.max(0, period.end - period.start);
}

/** Whole minutes waived by `overlapMs` of notice inside the period: requirement × overlap / length, floored. */
function waivedForOverlap(requirementMinutes: number, overlapMs: number, period: Period): number {
  const length = periodLength(period);
  if (length === 0 || overlapMs <= 0 || requirementMinutes <= 0) return 0;
  return floorTolerant((requirementMinutes * overlapMs) / length);
}

/** Whole minutes one approved notice `[noticeStart, noticeEnd)` waives from the period's requirement. */
export function waivedMinutes(requirementMinutes: number, noticeStart: number, noticeEnd: number, period: Period): number {
  return waivedForOverlap(requirementMinutes, clipMs(noticeStart, noticeEnd, period), period);
}

/** Sorts intervals and merges overlapping or touching ones; empty and inverted intervals are dropped. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && interval.start <= last.end) {
      merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, interval.end) };
    } else {
      merged.push({ start: interval.start, end: interval.end });
    }
  }
  return merged;
}

/**
 * Whole minutes several approved notices waive together: their union (overlaps counted once) is clipped to
 * the period, and the total overlap is floored once, so it never exceeds the requirement.
 */
export function waivedForNotices(requirementMinutes: number, notices: readonly Interval[], period: Period): number {
  let overlapMs = 0;
  for (const notice of mergeIntervals(notices)) overlapMs += clipMs(notice.start, notice.end, period);
  return waivedForOverlap(requirementMinutes, overlapMs, period);
}

/**
 * Rounds half up (away from zero) to `decimals` places, immune to binary artefacts: 1.005 → 1.01 and
 * 2/3 × 100 → 66.67. Float noise is removed by cutting to 15 significant digits before and after scaling.
 */
export function roundHalfUp(value: number, decimals = 2): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  const clean = Number(Math.abs(value).toPrecision(15));
  const scaled = Number((clean * factor).toPrecision(15));
  const rounded = Math.round(scaled) / factor;
  return value < 0 ? -rounded : rounded;
}

/**
 * Progress toward the requirement: period minutes / requirement × 100, rounded half up to two decimals,
 * not capped. 100 when the requirement is 0 (or less).
 */
export function progressPercent(periodMinutes: number, requirementMinutes: number): number {
  if (requirementMinutes <= 0) return 100;
  return roundHalfUp((periodMinutes * 100) / requirementMinutes, 2);
}
