/**
 * Time, in one module: the clock services read (a dependency, so tests can fix or move it), and instants as the
 * API writes them: strict ISO 8601 date-times with an offset, their formatting, and the wall-clock arithmetic that
 * reads them (proleptic Gregorian calendar, UTC).
 */

/** Time is a dependency: services read it from here so tests can fix or move it. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private current: number;
  constructor(current: number) {
    this.current = current;
  }
  now(): number {
    return this.current;
  }
  set(epochMs: number): void {
    this.current = epochMs;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

// Formatting a Date costs more than a microsecond and responses format several instants, mostly within the
// same minute: that minute's text is kept and only seconds and milliseconds are formatted.
let cachedMinute = Number.NaN;
let cachedMinuteText = '';

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

export function toIso(epochMs: number): string {
  const minute = Math.floor(epochMs / 60_000);
  if (minute !== cachedMinute || !Number.isInteger(epochMs)) {
    const iso = new Date(epochMs).toISOString();
    if (Number.isInteger(epochMs) && iso.length === 24) {
      cachedMinute = minute;
      cachedMinuteText = iso.slice(0, 17);
    }
    return iso;
  }
  const withinMinute = epochMs - minute * 60_000;
  return `${cachedMinuteText}${pad(Math.floor(withinMinute / 1000), 2)}.${pad(withinMinute % 1000, 3)}Z`;
}

export function toIsoOrNull(epochMs: number | null): string | null {
  return epochMs === null ? null : toIso(epochMs);
}

/** Lengths of elapsed time, in milliseconds (a day here is 24 hours, not a calendar day of a time zone). */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Epoch ms of a wall-clock date-time read as UTC; correct for years 0–99 too (Date.UTC maps those to 19xx). */
export function utcFromFields(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (year >= 0 && year < 100) {
    const date = new Date(ms);
    date.setUTCFullYear(year);
    return date.getTime();
  }
  return ms;
}

/**
 * RFC 3339 / ISO 8601 extended date-time with a mandatory offset: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` then `Z`
 * or `±HH:MM`. `T` and `Z` may be lower case (RFC 3339). Bare dates, offsetless times, basic format and a space
 * separator are rejected.
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Days in a month of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  return new Date(utcFromFields(year, month + 1, 1) - DAY_MS).getUTCDate();
}

/**
 * Parses a strict ISO 8601 date-time with offset into epoch ms (fractions below a millisecond are
 * truncated). Returns `undefined` for anything else, including a bare date and impossible dates.
 */
export function parseIsoDateTime(text: string): number | undefined {
  const m = ISO_DATE_TIME.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zulu, sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const offset = zulu !== undefined ? 0 : (sign === '-' ? -1 : 1) * (offsetHours * HOUR_MS + offsetMinutes * MINUTE_MS);
  return utcFromFields(year, month, day, hour, minute, second) + millis - offset;
}
