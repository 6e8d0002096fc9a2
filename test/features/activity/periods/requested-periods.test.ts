/**
 * Periods as a request states them: custom ranges, ISO date-times, the resolution of a query's period, the
 * invariants of every period across zones (property) and the reuse of named periods per zone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calendarDays,
  customPeriod,
  dayPeriod,
  MAX_CUSTOM_RANGE_MS,
  monthPeriod,
  parseIsoDateTime,
  previousWeekPeriod,
  resolvePeriod,
  weekPeriod,
  zonedParts,
} from '../../../../src/features/activity/periods/periods.ts';
import { at, DAY, expectPeriodError } from './period-checks.ts';

describe('customPeriod', () => {
  const start = at('2026-01-01T00:00:00Z');

  it('accepts exactly 366 × 24 h', () => {
    const end = at('2027-01-02T00:00:00Z');
    expect(end - start).toBe(MAX_CUSTOM_RANGE_MS);
    expect(customPeriod(start, end, 'UTC')).toEqual({ start, end, timeZone: 'UTC' });
  });

  it('rejects one millisecond more than 366 days', () => {
    expectPeriodError(() => customPeriod(start, start + 366 * DAY + 1, 'UTC'), 'range_too_long', 'end');
  });

  it('rejects an end at or before the start', () => {
    expectPeriodError(() => customPeriod(start, start, 'UTC'), 'invalid_range', 'end');
    expectPeriodError(() => customPeriod(start, start - 1, 'UTC'), 'invalid_range', 'end');
  });

  it('accepts a one-millisecond range', () => {
    expect(customPeriod(start, start + 1, 'UTC').end).toBe(start + 1);
  });
});

describe('parseIsoDateTime', () => {
  it('parses date-times with Z or a numeric offset', () => {
    expect(parseIsoDateTime('2026-03-29T00:00:00+01:00')).toBe(at('2026-03-29T00:00:00+01:00'));
    expect(parseIsoDateTime('2026-03-29T00:00:00Z')).toBe(at('2026-03-29T00:00:00Z'));
    expect(parseIsoDateTime('2026-03-29t00:00:00z')).toBe(at('2026-03-29T00:00:00Z'));
    expect(parseIsoDateTime('2026-03-29T00:00Z')).toBe(at('2026-03-29T00:00:00Z'));
    expect(parseIsoDateTime('2026-04-05T00:00:00+10:30')).toBe(at('2026-04-04T13:30:00Z'));
    expect(parseIsoDateTime('2026-03-08T00:00:00-05:00')).toBe(at('2026-03-08T05:00:00Z'));
    expect(parseIsoDateTime('2026-03-08T00:00:00.5Z')).toBe(at('2026-03-08T00:00:00.500Z'));
    expect(parseIsoDateTime('2026-03-08T00:00:00.123456789Z')).toBe(at('2026-03-08T00:00:00.123Z'));
    expect(parseIsoDateTime('2028-02-29T23:59:59Z')).toBe(at('2028-02-29T23:59:59Z'));
  });

  it.each([
    ['a bare date', '2026-03-29'],
    ['no offset', '2026-03-29T00:00:00'],
    ['garbage', 'yesterday'],
    ['an empty string', ''],
    ['an impossible date', '2026-02-29T00:00:00Z'],
    ['April 31', '2026-04-31T00:00:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['hour 24', '2026-03-01T24:00:00Z'],
    ['a leap second', '2026-03-01T23:59:60Z'],
    ['an offset without colon', '2026-03-01T00:00:00+0100'],
    ['an out-of-range offset', '2026-03-01T00:00:00+24:00'],
    ['a space separator', '2026-03-01 00:00:00Z'],
    ['an epoch number', '1772323200000'],
    ['trailing text', '2026-03-01T00:00:00Zjunk'],
    ['a basic-format date-time', '20260301T000000Z'],
  ])('rejects %s', (_label, text) => {
    expect(parseIsoDateTime(text)).toBeUndefined();
  });
});

describe('resolvePeriod', () => {
  const now = at('2026-03-11T12:00:00+01:00');
  const tz = 'Europe/Berlin';
  const week = { ...weekPeriod(now, tz), kind: 'week' };

  it('defaults to the current week', () => {
    expect(resolvePeriod({}, now, tz)).toEqual(week);
    expect(resolvePeriod({ period: 'week' }, now, tz)).toEqual(week);
  });

  it('treats an unrecognized period as week', () => {
    for (const period of ['day', 'year', 'MONTH', '', 'week ']) {
      expect(resolvePeriod({ period }, now, tz)).toEqual(week);
    }
  });

  it('returns the current month for period=month', () => {
    expect(resolvePeriod({ period: 'month' }, now, tz)).toEqual({
      start: at('2026-03-01T00:00:00+01:00'),
      end: at('2026-04-01T00:00:00+02:00'),
      timeZone: tz,
      kind: 'month',
    });
  });

  it('lets start and end override period', () => {
    const range = { start: '2026-03-01T00:00:00+01:00', end: '2026-03-04T12:00:00Z' };
    expect(resolvePeriod({ period: 'month', ...range }, now, tz)).toEqual({
      start: at(range.start),
      end: at(range.end),
      timeZone: tz,
      kind: 'custom',
    });
  });

  it('rejects start without end and end without start', () => {
    expectPeriodError(() => resolvePeriod({ start: '2026-03-01T00:00:00Z' }, now, tz), 'incomplete_range', 'end');
    expectPeriodError(() => resolvePeriod({ end: '2026-03-01T00:00:00Z' }, now, tz), 'incomplete_range', 'start');
    expectPeriodError(() => resolvePeriod({ period: 'month', end: '' }, now, tz), 'incomplete_range', 'start');
  });

  it('rejects malformed bounds, naming the field', () => {
    expectPeriodError(
      () => resolvePeriod({ start: '2026-03-01', end: '2026-03-02T00:00:00Z' }, now, tz),
      'invalid_timestamp',
      'start',
    );
    expectPeriodError(
      () => resolvePeriod({ start: '2026-03-01T00:00:00Z', end: 'tomorrow' }, now, tz),
      'invalid_timestamp',
      'end',
    );
  });

  it('hints at an unencoded + in the offset', () => {
    expect(() => resolvePeriod({ start: '2026-03-01T00:00:00 01:00', end: '2026-03-02T00:00:00Z' }, now, tz)).toThrow(
      /%2B/,
    );
  });

  it('applies the range rules to custom ranges', () => {
    expectPeriodError(
      () => resolvePeriod({ start: '2026-03-02T00:00:00Z', end: '2026-03-02T00:00:00Z' }, now, tz),
      'invalid_range',
      'end',
    );
    expectPeriodError(
      () => resolvePeriod({ start: '2026-03-02T00:00:00Z', end: '2026-03-01T00:00:00Z' }, now, tz),
      'invalid_range',
      'end',
    );
    expect(resolvePeriod({ start: '2028-01-01T00:00:00Z', end: '2029-01-01T00:00:00Z' }, now, tz).kind).toBe('custom');
    expectPeriodError(
      () => resolvePeriod({ start: '2028-01-01T00:00:00Z', end: '2029-01-01T00:00:00.001Z' }, now, tz),
      'range_too_long',
      'end',
    );
  });
});

describe('period invariants across zones (property)', () => {
  const zones = [
    'UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'Asia/Beirut',
    'America/Havana', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns',
  ];
  const instant = fc.integer({ min: at('2015-01-01T00:00:00Z'), max: at('2035-01-01T00:00:00Z') });

  it('every period contains now, starts on its first local date and abuts the next one', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), (now, tz) => {
        const day = dayPeriod(now, tz);
        const week = weekPeriod(now, tz);
        const month = monthPeriod(now, tz);
        for (const p of [day, week, month]) {
          expect(p.start).toBeLessThanOrEqual(now);
          expect(now).toBeLessThan(p.end);
        }
        expect(zonedParts(week.start, tz).weekday).toBe(1);
        expect(zonedParts(week.end, tz).weekday).toBe(1);
        expect(zonedParts(month.start, tz).day).toBe(1);
        expect(zonedParts(month.end, tz).day).toBe(1);
        // The instant before a period's start belongs to the previous local date.
        expect(zonedParts(day.start - 1, tz).day).not.toBe(zonedParts(day.start, tz).day);
        expect(previousWeekPeriod(now, tz).end).toBe(week.start);
        expect(weekPeriod(week.end, tz).start).toBe(week.end);
        expect(dayPeriod(day.end, tz).start).toBe(day.end);
        expect(calendarDays(week)).toBe(7);
        expect(calendarDays(day)).toBe(1);
      }),
      { numRuns: 500 },
    );
  });
});

describe('named periods are reused per zone only while they hold', () => {
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
  const instant = fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') });

  it('gives the same periods for an instant whatever was asked before, in any zone', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(instant, fc.constantFrom(...zones)), { minLength: 1, maxLength: 30 }), (calls) => {
        const ask = ([now, zone]: [number, string]) =>
          [dayPeriod, weekPeriod, previousWeekPeriod, monthPeriod].map((period) => period(now, zone));
        const forward = calls.map(ask);
        const backward = [...calls].reverse().map(ask).reverse();
        expect(backward).toEqual(forward);
        for (const [i, [now]] of calls.entries()) {
          const [day, week, previous, month] = forward[i]!;
          for (const p of [day!, week!, month!]) expect(p.start <= now && now < p.end).toBe(true);
          expect(previous!.end).toBe(week!.start);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('moves to the next period at its first instant (a week boundary, then the day before it again)', () => {
    const zone = 'Europe/Berlin';
    const boundary = Date.parse('2026-03-29T22:00:00Z'); // Monday 2026-03-30 00:00 CEST, right after the DST change
    expect(weekPeriod(boundary - 1, zone).end).toBe(boundary);
    expect(weekPeriod(boundary, zone).start).toBe(boundary);
    expect(previousWeekPeriod(boundary, zone).end).toBe(boundary);
    expect(weekPeriod(boundary - 1, zone).end).toBe(boundary);
    expect(dayPeriod(boundary - 1, zone).end).toBe(boundary);
    expect(dayPeriod(boundary - 1, zone).end - dayPeriod(boundary - 1, zone).start).toBe(23 * 3600 * 1000);
  });
});
