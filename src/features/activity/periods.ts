/**
 * Reporting periods in a workspace time zone (CONTRACT 5 and 9).
 *
 * Pure functions: every instant is epoch milliseconds, every zone an IANA name, and "now" is always a
 * parameter. Only `Intl` is used for zone rules; one `Intl.DateTimeFormat` is cached per zone because
 * these functions run on every activity request.
 *
 * Periods are half-open `[start, end)`; `end` is the instant the next period starts. A day starts at local
 * midnight, or at the first instant of that date that exists when a DST jump skips midnight.
 */
import { AppError } from '../../errors.ts';
import { parseIsoDateTime, utcFromFields } from './iso-date-time.ts';

export { parseIsoDateTime };

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Longest custom range accepted: 366 × 24 h of elapsed time (CONTRACT 9). */
export const MAX_CUSTOM_RANGE_MS = 366 * DAY_MS;

/** A half-open interval `[start, end)` of epoch milliseconds, reported in `timeZone`. */
export interface Period {
  readonly start: number;
  readonly end: number;
  readonly timeZone: string;
}

/** Named periods plus the caller-chosen custom range. */
export type PeriodKind = 'week' | 'month' | 'custom';

/** The outcome of {@link resolvePeriod}: the period and how it was chosen. */
export interface ResolvedPeriod extends Period {
  readonly kind: PeriodKind;
}

/** Wall-clock fields of an instant in a zone. `weekday` is ISO: 1 = Monday … 7 = Sunday. */
export interface ZonedParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: number;
}

/** A calendar date (no zone, no time). */
export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** Why a period request was rejected; every reason is a client error (HTTP 400). */
export type PeriodErrorReason = 'invalid_timestamp' | 'incomplete_range' | 'invalid_range' | 'range_too_long';

/**
 * A rejected period request. It is an `AppError` with code `validation_failed` and `details.issues`, so the
 * HTTP layer answers 400 without further mapping; `reason` and `field` let callers tell the cases apart.
 */
export class PeriodError extends AppError {
  override name = 'PeriodError';
  readonly reason: PeriodErrorReason;
  readonly field: 'start' | 'end';
  constructor(reason: PeriodErrorReason, field: 'start' | 'end', message: string) {
    super('validation_failed', message, { issues: [{ path: `/${field}`, message }] });
    this.reason = reason;
    this.field = field;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Zone arithmetic
// ---------------------------------------------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The cached formatter for a zone; throws RangeError for an unknown zone (as Intl does). */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US-u-ca-gregory-nu-latn', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True when `timeZone` is an IANA zone name this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone a workspace's periods are computed in: its own, or UTC when this runtime does not know it. */
export function reportingTimeZone(timeZone: string | null | undefined): string {
  return timeZone && isValidTimeZone(timeZone) ? timeZone : 'UTC';
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a calendar date. */
function isoWeekday(year: number, month: number, day: number): number {
  const sundayBased = new Date(utcFromFields(year, month, day)).getUTCDay();
  return sundayBased === 0 ? 7 : sundayBased;
}

/** Local wall-clock fields of `epochMs` in `timeZone`. */
export function zonedParts(epochMs: number, timeZone: string): ZonedParts {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of formatterFor(timeZone).formatToParts(epochMs)) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value);
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
      default:
        break;
    }
  }
  return { year, month, day, hour, minute, second, weekday: isoWeekday(year, month, day) };
}

/** The zone's UTC offset in ms at `epochMs` (local wall clock minus UTC), at whole-second precision. */
function offsetAt(epochMs: number, timeZone: string): number {
  const second = Math.floor(epochMs / 1000) * 1000;
  const p = zonedParts(second, timeZone);
  return utcFromFields(p.year, p.month, p.day, p.hour, p.minute, p.second) - second;
}

/** The local wall clock at `epochMs`, expressed as if it were a UTC instant (whole seconds). */
function wallClockAt(epochMs: number, timeZone: string): number {
  return Math.floor(epochMs / 1000) * 1000 + offsetAt(epochMs, timeZone);
}

/**
 * Zone rules do not change while the process runs, so midnights are memoized: requests in one week ask for
 * the same handful of dates. Bounded; cleared wholesale when full (cheap, and refilled within a request).
 */
const MIDNIGHT_CACHE_SIZE = 4096;
const midnights = new Map<string, number>();

/**
 * Epoch ms of local 00:00 on the given calendar date in `timeZone`.
 *
 * When midnight occurs twice (a fall-back to 00:00), the first occurrence is returned. When it does not
 * occur (a spring-forward across midnight), the first instant of the day that exists, i.e. the transition
 * instant. Like Temporal, this assumes at most one offset change within a day of the date.
 */
export function zonedMidnight(year: number, month: number, day: number, timeZone: string): number {
  const key = `${timeZone}|${year}-${month}-${day}`;
  const cached = midnights.get(key);
  if (cached !== undefined) return cached;
  const value = computeZonedMidnight(year, month, day, timeZone);
  if (midnights.size >= MIDNIGHT_CACHE_SIZE) midnights.clear();
  midnights.set(key, value);
  return value;
}

/** Uncached {@link zonedMidnight}. */
function computeZonedMidnight(year: number, month: number, day: number, timeZone: string): number {
  const wall = utcFromFields(year, month, day);
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  let best: number | undefined;
  for (const offset of before === after ? [before] : [before, after]) {
    const candidate = wall - offset;
    if (wallClockAt(candidate, timeZone) === wall && (best === undefined || candidate < best)) best = candidate;
  }
  if (best !== undefined) return best;
  return firstInstantAtOrAfter(wall, wall - Math.max(before, after), wall - Math.min(before, after), timeZone);
}

/**
 * In a DST gap: the first instant in `(low, high]` whose wall clock is at or past `wall`. Offsets change on
 * whole seconds, so a binary search over seconds finds the transition instant.
 */
function firstInstantAtOrAfter(wall: number, low: number, high: number, timeZone: string): number {
  let lo = Math.floor(low / 1000);
  let hi = Math.ceil(high / 1000);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClockAt(mid * 1000, timeZone) >= wall) hi = mid;
    else lo = mid;
  }
  return hi * 1000;
}

/** The calendar date `days` after (or before, when negative) the given one. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const shifted = new Date(utcFromFields(date.year, date.month, date.day) + days * DAY_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** Start of a calendar date in the zone (see {@link zonedMidnight}). */
function startOfDate(date: CalendarDate, timeZone: string): number {
  return zonedMidnight(date.year, date.month, date.day, timeZone);
}

/** The period from the start of `first` to the start of `next`. */
function periodBetween(first: CalendarDate, next: CalendarDate, timeZone: string): Period {
  return { start: startOfDate(first, timeZone), end: startOfDate(next, timeZone), timeZone };
}

/** Monday of the local week containing `now`. */
function mondayOf(now: number, timeZone: string): CalendarDate {
  const p = zonedParts(now, timeZone);
  return addDays(p, 1 - p.weekday);
}

// ---------------------------------------------------------------------------------------------------------
// Periods
// ---------------------------------------------------------------------------------------------------------

/** The local calendar day containing `now` (23 h or 25 h on DST days). */
function computeDayPeriod(now: number, timeZone: string): Period {
  const today = zonedParts(now, timeZone);
  return periodBetween(today, addDays(today, 1), timeZone);
}

/** The local week containing `now`: Monday 00:00 to the next Monday 00:00. */
function computeWeekPeriod(now: number, timeZone: string): Period {
  const monday = mondayOf(now, timeZone);
  return periodBetween(monday, addDays(monday, 7), timeZone);
}

/** The local week before the one containing `now`. */
function computePreviousWeekPeriod(now: number, timeZone: string): Period {
  const monday = mondayOf(now, timeZone);
  return periodBetween(addDays(monday, -7), monday, timeZone);
}

/** The local month containing `now`: the 1st 00:00 to the next month's 1st 00:00. */
function computeMonthPeriod(now: number, timeZone: string): Period {
  const { year, month } = zonedParts(now, timeZone);
  const next = month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 };
  return periodBetween({ year, month, day: 1 }, next, timeZone);
}

/**
 * A caller-chosen range. Requires `end > start` and at most 366 × 24 h of elapsed time.
 * @throws PeriodError (`invalid_range`, `range_too_long`)
 */
/**
 * The last period computed per zone, reused while `now` stays inside the period it was computed for (`within`):
 * the period containing an instant is unique, so reuse is exact, and it spares the zone arithmetic (Intl) that
 * would otherwise run on every report request.
 */
function lastPerZone(compute: (now: number, timeZone: string) => Period, within: (period: Period) => Span) {
  const last = new Map<string, { readonly from: number; readonly to: number; readonly period: Period }>();
  return (now: number, timeZone: string): Period => {
    const hit = last.get(timeZone);
    if (hit !== undefined && hit.from <= now && now < hit.to) return hit.period;
    const period = compute(now, timeZone);
    const { start: from, end: to } = within(period);
    last.set(timeZone, { from, to, period });
    return period;
  };
}

type Span = { readonly start: number; readonly end: number };
const itself = (period: Period): Span => period;
const weekAfter = (period: Period): Span => ({ start: period.end, end: computeWeekPeriod(period.end, period.timeZone).end });

/** The local calendar day containing `now` (23 h or 25 h on DST days). */
export const dayPeriod = lastPerZone(computeDayPeriod, itself);
/** The local week containing `now`: Monday 00:00 to the next Monday 00:00. */
export const weekPeriod = lastPerZone(computeWeekPeriod, itself);
/** The local week before the one containing `now`. */
export const previousWeekPeriod = lastPerZone(computePreviousWeekPeriod, weekAfter);
/** The local month containing `now`: the 1st 00:00 to the next month's 1st 00:00. */
export const monthPeriod = lastPerZone(computeMonthPeriod, itself);

export function customPeriod(start: number, end: number, timeZone: string): Period {
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) {
    throw new PeriodError('invalid_range', 'end', '`end` must be later than `start`.');
  }
  if (end - start > MAX_CUSTOM_RANGE_MS) {
    throw new PeriodError('range_too_long', 'end', 'A custom range may span at most 366 days.');
  }
  return { start, end, timeZone };
}

/**
 * How many local calendar dates the period touches: from the date of `start` to the date of its last
 * instant, inclusive. A week is 7 and a 31-day month 31, DST or not.
 */
export function calendarDays(period: Period): number {
  if (period.end <= period.start) return 0;
  const first = zonedParts(period.start, period.timeZone);
  const last = zonedParts(period.end - 1, period.timeZone);
  const span = utcFromFields(last.year, last.month, last.day) - utcFromFields(first.year, first.month, first.day);
  return Math.round(span / DAY_MS) + 1;
}

// ---------------------------------------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------------------------------------

/** Parses one bound of a custom range or throws a PeriodError naming it. */
function parseBound(field: 'start' | 'end', text: string): number {
  const parsed = parseIsoDateTime(text);
  if (parsed !== undefined) return parsed;
  // A '+' sent unencoded in a query string arrives as a space: say so instead of a bare "invalid".
  const hint = /\d \d{2}:\d{2}$/.test(text) ? " (encode '+' in the offset as %2B)" : '';
  throw new PeriodError(
    'invalid_timestamp',
    field,
    `\`${field}\` must be an ISO 8601 date-time with an offset, e.g. 2026-03-02T00:00:00Z${hint}.`,
  );
}

/** The period-selecting query parameters of the aggregate and leaderboard endpoints. */
export interface PeriodQuery {
  readonly period?: string | undefined;
  readonly start?: string | undefined;
  readonly end?: string | undefined;
}

/**
 * Chooses the reporting period (CONTRACT 9): `start` and `end` together override `period`; only one of them
 * is a 400; otherwise `period` `month` is the local month and anything else (missing, `week`, unrecognized)
 * the local week containing `now`. An empty `start`/`end` counts as present (and is then malformed).
 * @throws PeriodError (`incomplete_range`, `invalid_timestamp`, `invalid_range`, `range_too_long`)
 */
export function resolvePeriod(query: PeriodQuery, now: number, timeZone: string): ResolvedPeriod {
  const { period, start, end } = query;
  if (start !== undefined || end !== undefined) {
    if (start === undefined) throw new PeriodError('incomplete_range', 'start', '`start` is required with `end`.');
    if (end === undefined) throw new PeriodError('incomplete_range', 'end', '`end` is required with `start`.');
    const range = customPeriod(parseBound('start', start), parseBound('end', end), timeZone);
    return { ...range, kind: 'custom' };
  }
  if (period === 'month') return { ...monthPeriod(now, timeZone), kind: 'month' };
  return { ...weekPeriod(now, timeZone), kind: 'week' };
}
