/**
 * Reporting periods in a workspace time zone (docs/API.md, "Activity reports").
 *
 * Pure functions: every instant is epoch milliseconds, every zone an IANA name, and "now" is always a
 * parameter. Zone rules come from Temporal (the `temporal-polyfill` package, which hands over to a native
 * `Temporal` where the runtime has one).
 *
 * Periods are half-open `[start, end)`; `end` is the instant the next period starts. A period runs from the
 * start of its first local date to the start of the next period's, as `PlainDate#toZonedDateTime` gives it:
 * local midnight, or the first instant of that date that exists when a DST jump skips midnight.
 */
import { Temporal } from 'temporal-polyfill';
import { AppError } from '../../../shared/errors.ts';
import { DAY_MS, parseIsoDateTime } from '../../../shared/clock.ts';

export { parseIsoDateTime };

/** Longest custom range accepted: 366 × 24 h of elapsed time (docs/API.md, "Activity reports"). */
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

/** The instant `epochMs` seen in `timeZone`; throws RangeError for an unknown zone. */
function zoned(epochMs: number, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone);
}

/** Whether each zone name asked about is known; the runtime's zone data does not change while it runs. */
const knownZones = new Map<string, boolean>();

/** True when `timeZone` is an IANA zone name this runtime knows (or, as Intl too allows, an offset like `+01:00`). */
export function isValidTimeZone(timeZone: string): boolean {
  let known = knownZones.get(timeZone);
  if (known === undefined) {
    try {
      zoned(0, timeZone);
      known = true;
    } catch {
      known = false;
    }
    if (knownZones.size >= 1024) knownZones.clear();
    knownZones.set(timeZone, known);
  }
  return known;
}

/** The zone a workspace's periods are computed in: its own, or UTC when this runtime does not know it. */
export function reportingTimeZone(timeZone: string | null | undefined): string {
  return timeZone && isValidTimeZone(timeZone) ? timeZone : 'UTC';
}

/** Local wall-clock fields of `epochMs` in `timeZone`. */
export function zonedParts(epochMs: number, timeZone: string): ZonedParts {
  const { year, month, day, hour, minute, second, dayOfWeek } = zoned(epochMs, timeZone);
  return { year, month, day, hour, minute, second, weekday: dayOfWeek };
}

/** The first instant of a local date in the zone (see {@link zonedMidnight}). */
function startOf(date: Temporal.PlainDate, timeZone: string): number {
  return date.toZonedDateTime({ timeZone }).epochMilliseconds;
}

/**
 * Epoch ms of local 00:00 on the given calendar date in `timeZone` (Temporal's start of day): when midnight
 * occurs twice (a fall-back to 00:00), the first occurrence; when it does not occur (a spring-forward across
 * midnight, or a date the zone skipped), the first instant after it that exists.
 */
export function zonedMidnight(year: number, month: number, day: number, timeZone: string): number {
  return startOf(new Temporal.PlainDate(year, month, day), timeZone);
}

/** The calendar date `days` after (or before, when negative) the given one. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const { year, month, day } = Temporal.PlainDate.from(date).add({ days });
  return { year, month, day };
}

/** The period from the start of `first` to the start of `next`. */
function periodBetween(first: Temporal.PlainDate, next: Temporal.PlainDate, timeZone: string): Period {
  return { start: startOf(first, timeZone), end: startOf(next, timeZone), timeZone };
}

/** The local date of `now`. */
function localDate(now: number, timeZone: string): Temporal.PlainDate {
  return zoned(now, timeZone).toPlainDate();
}

/** Monday of the local week containing `now`. */
function mondayOf(now: number, timeZone: string): Temporal.PlainDate {
  const today = localDate(now, timeZone);
  return today.subtract({ days: today.dayOfWeek - 1 });
}

// ---------------------------------------------------------------------------------------------------------
// Periods
// ---------------------------------------------------------------------------------------------------------

/** The local calendar day containing `now` (23 h or 25 h on DST days). */
function computeDayPeriod(now: number, timeZone: string): Period {
  const today = localDate(now, timeZone);
  return periodBetween(today, today.add({ days: 1 }), timeZone);
}

/** The local week containing `now`: Monday 00:00 to the next Monday 00:00. */
function computeWeekPeriod(now: number, timeZone: string): Period {
  const monday = mondayOf(now, timeZone);
  return periodBetween(monday, monday.add({ weeks: 1 }), timeZone);
}

/** The local week before the one containing `now`. */
function computePreviousWeekPeriod(now: number, timeZone: string): Period {
  const monday = mondayOf(now, timeZone);
  return periodBetween(monday.subtract({ weeks: 1 }), monday, timeZone);
}

/** The local month containing `now`: the 1st 00:00 to the next month's 1st 00:00. */
function computeMonthPeriod(now: number, timeZone: string): Period {
  const first = localDate(now, timeZone).with({ day: 1 });
  return periodBetween(first, first.add({ months: 1 }), timeZone);
}

/**
 * The last period computed per zone, reused while `now` stays inside the period it was computed for (`within`):
 * the period containing an instant is unique, so reuse is exact, and it spares the zone arithmetic that would
 * otherwise run on every report request and shift completion.
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

/** The `count` local weeks up to the one containing `now` (included), oldest first. */
export function weeksUpTo(now: number, timeZone: string, count: number): Period[] {
  const monday = mondayOf(now, timeZone);
  const weeks: Period[] = [];
  for (let back = count - 1; back >= 0; back -= 1) {
    const start = monday.subtract({ weeks: back });
    weeks.push(periodBetween(start, start.add({ weeks: 1 }), timeZone));
  }
  return weeks;
}

/**
 * A caller-chosen range. Requires `end > start` and at most 366 × 24 h of elapsed time.
 * @throws PeriodError (`invalid_range`, `range_too_long`)
 */
export function customPeriod(start: number, end: number, timeZone: string): Period {
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) {
    throw new PeriodError('invalid_range', 'end', '`end` must be later than `start`.');
  }
  if (end - start > MAX_CUSTOM_RANGE_MS) {
    throw new PeriodError('range_too_long', 'end', 'A custom range may span at most 366 days.');
  }
  return { start, end, timeZone };
}

/** The last answer of {@link calendarDays} per zone: reports ask for the current week's or month's again and again. */
const lastCalendarDays = new Map<string, { readonly start: number; readonly end: number; readonly days: number }>();

/**
 * How many local calendar dates the period touches: from the date of `start` to the date of its last
 * instant, inclusive. A week is 7 and a 31-day month 31, DST or not.
 */
export function calendarDays(period: Period): number {
  const { start, end, timeZone } = period;
  if (end <= start) return 0;
  const last = lastCalendarDays.get(timeZone);
  if (last !== undefined && last.start === start && last.end === end) return last.days;
  const days = localDate(start, timeZone).until(localDate(end - 1, timeZone)).days + 1;
  lastCalendarDays.set(timeZone, { start, end, days });
  return days;
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
 * Chooses the reporting period (docs/API.md, "Activity reports"): `start` and `end` together override `period`; only one of them
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
