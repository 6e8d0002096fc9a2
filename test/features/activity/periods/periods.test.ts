/** Calendar periods in a time zone: its parts and midnights, the day, the week (and the one before), the month. */
import { describe, expect, it } from 'vitest';
import {
  calendarDays,
  dayPeriod,
  isValidTimeZone,
  monthPeriod,
  previousWeekPeriod,
  weekPeriod,
  zonedMidnight,
  zonedParts,
  type Period,
} from '../../../../src/features/activity/periods/periods.ts';
import { at, expectPeriod, hours } from './period-checks.ts';

describe('zonedParts', () => {
  it('reads the local wall clock and ISO weekday of an instant', () => {
    expect(zonedParts(at('2026-03-11T12:34:56Z'), 'UTC')).toEqual({
      year: 2026, month: 3, day: 11, hour: 12, minute: 34, second: 56, weekday: 3,
    });
    // 23:30 UTC on Saturday is already Sunday 00:30 in Berlin (CET, +01:00).
    expect(zonedParts(at('2026-01-31T23:30:00Z'), 'Europe/Berlin')).toEqual({
      year: 2026, month: 2, day: 1, hour: 0, minute: 30, second: 0, weekday: 7,
    });
    // 03:00 UTC on Monday is still Sunday 22:00 in New York (EST, -05:00).
    expect(zonedParts(at('2026-03-02T03:00:00Z'), 'America/New_York')).toMatchObject({
      day: 1, hour: 22, weekday: 7,
    });
  });

  it('reports hour 0 at midnight, never 24', () => {
    expect(zonedParts(at('2026-03-09T00:00:00Z'), 'UTC')).toMatchObject({ day: 9, hour: 0, weekday: 1 });
  });

  it('follows the 30-minute Lord Howe shift', () => {
    // 2026-04-05 02:00 +11:00 falls back to 01:30 +10:30.
    expect(zonedParts(at('2026-04-04T14:59:00Z'), 'Australia/Lord_Howe')).toMatchObject({ hour: 1, minute: 59 });
    expect(zonedParts(at('2026-04-04T15:01:00Z'), 'Australia/Lord_Howe')).toMatchObject({ hour: 1, minute: 31 });
  });

  it('rejects an unknown zone, which isValidTimeZone reports', () => {
    expect(() => zonedParts(0, 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
  });
});

describe('zonedMidnight', () => {
  it('is local 00:00 on ordinary days', () => {
    expect(zonedMidnight(2026, 3, 11, 'UTC')).toBe(at('2026-03-11T00:00:00Z'));
    expect(zonedMidnight(2026, 7, 1, 'Europe/Berlin')).toBe(at('2026-07-01T00:00:00+02:00'));
    expect(zonedMidnight(2026, 1, 15, 'America/New_York')).toBe(at('2026-01-15T00:00:00-05:00'));
    expect(zonedMidnight(2026, 4, 5, 'Australia/Lord_Howe')).toBe(at('2026-04-05T00:00:00+11:00'));
    expect(zonedMidnight(2026, 4, 6, 'Australia/Lord_Howe')).toBe(at('2026-04-06T00:00:00+10:30'));
    expect(zonedMidnight(2026, 10, 5, 'Australia/Lord_Howe')).toBe(at('2026-10-05T00:00:00+11:00'));
  });

  it('uses the offset in force at midnight on DST days whose jump is later in the day', () => {
    expect(zonedMidnight(2026, 3, 29, 'Europe/Berlin')).toBe(at('2026-03-29T00:00:00+01:00'));
    expect(zonedMidnight(2026, 10, 25, 'Europe/Berlin')).toBe(at('2026-10-25T00:00:00+02:00'));
    expect(zonedMidnight(2026, 3, 8, 'America/New_York')).toBe(at('2026-03-08T00:00:00-05:00'));
    expect(zonedMidnight(2026, 11, 1, 'America/New_York')).toBe(at('2026-11-01T00:00:00-04:00'));
  });

  it('is the first existing instant when a spring-forward skips midnight', () => {
    // São Paulo, 2018-11-04: 00:00 -03:00 jumped to 01:00 -02:00.
    expect(zonedMidnight(2018, 11, 4, 'America/Sao_Paulo')).toBe(at('2018-11-04T01:00:00-02:00'));
    // Beirut, 2026-03-29: 00:00 +02:00 jumps to 01:00 +03:00.
    expect(zonedMidnight(2026, 3, 29, 'Asia/Beirut')).toBe(at('2026-03-29T01:00:00+03:00'));
    // Samoa skipped 2011-12-30 entirely: the first instant at or after it is 2011-12-31 00:00 +14:00.
    expect(zonedMidnight(2011, 12, 30, 'Pacific/Apia')).toBe(at('2011-12-31T00:00:00+14:00'));
  });

  it('is the single midnight after a fall-back across midnight, and the first of a repeated one', () => {
    // Beirut, 2026-10-25: 00:00 +03:00 falls back to Saturday 23:00 +02:00; Sunday 00:00 then happens once.
    expect(zonedMidnight(2026, 10, 25, 'Asia/Beirut')).toBe(at('2026-10-25T00:00:00+02:00'));
    // Havana, 2026-11-01: 01:00 -04:00 falls back to 00:00 -05:00; midnight happens twice, the first counts.
    expect(zonedMidnight(2026, 11, 1, 'America/Havana')).toBe(at('2026-11-01T00:00:00-04:00'));
  });
});

describe('weekPeriod', () => {
  it('runs from Monday 00:00 to the next Monday 00:00 in UTC', () => {
    const p = weekPeriod(at('2026-03-11T12:00:00Z'), 'UTC');
    expectPeriod(p, '2026-03-09T00:00:00Z', '2026-03-16T00:00:00Z', 'UTC');
    expect(hours(p)).toBe(168);
    expect(calendarDays(p)).toBe(7);
  });

  it('contains its own start and not its end', () => {
    const monday = at('2026-03-09T00:00:00Z');
    expect(weekPeriod(monday, 'UTC').start).toBe(monday);
    expect(weekPeriod(monday - 1, 'UTC').end).toBe(monday);
    const sundayNight = at('2026-03-15T23:59:59.999Z');
    expect(weekPeriod(sundayNight, 'UTC').start).toBe(at('2026-03-09T00:00:00Z'));
  });

  it('is 167 h in the Berlin spring-forward week (2026-03-29)', () => {
    const p = weekPeriod(at('2026-03-29T12:00:00+02:00'), 'Europe/Berlin');
    expectPeriod(p, '2026-03-23T00:00:00+01:00', '2026-03-30T00:00:00+02:00', 'Europe/Berlin');
    expect(hours(p)).toBe(167);
    expect(calendarDays(p)).toBe(7);
  });

  it('is 169 h in the Berlin fall-back week (2026-10-25)', () => {
    const p = weekPeriod(at('2026-10-21T09:00:00+02:00'), 'Europe/Berlin');
    expectPeriod(p, '2026-10-19T00:00:00+02:00', '2026-10-26T00:00:00+01:00', 'Europe/Berlin');
    expect(hours(p)).toBe(169);
    expect(calendarDays(p)).toBe(7);
  });

  it('is 167 h and 169 h in the New York DST weeks (2026-03-08, 2026-11-01)', () => {
    const spring = weekPeriod(at('2026-03-08T03:30:00-04:00'), 'America/New_York');
    expectPeriod(spring, '2026-03-02T00:00:00-05:00', '2026-03-09T00:00:00-04:00', 'America/New_York');
    expect(hours(spring)).toBe(167);
    const fall = weekPeriod(at('2026-11-01T01:30:00-05:00'), 'America/New_York');
    expectPeriod(fall, '2026-10-26T00:00:00-04:00', '2026-11-02T00:00:00-05:00', 'America/New_York');
    expect(hours(fall)).toBe(169);
    expect(calendarDays(spring)).toBe(7);
    expect(calendarDays(fall)).toBe(7);
  });

  it('is 168.5 h and 167.5 h in the Lord Howe DST weeks (30-minute shift)', () => {
    const april = weekPeriod(at('2026-04-05T01:45:00+10:30'), 'Australia/Lord_Howe');
    expectPeriod(april, '2026-03-30T00:00:00+11:00', '2026-04-06T00:00:00+10:30', 'Australia/Lord_Howe');
    expect(hours(april)).toBe(168.5);
    const october = weekPeriod(at('2026-10-04T03:00:00+11:00'), 'Australia/Lord_Howe');
    expectPeriod(october, '2026-09-28T00:00:00+10:30', '2026-10-05T00:00:00+11:00', 'Australia/Lord_Howe');
    expect(hours(october)).toBe(167.5);
    expect(calendarDays(april)).toBe(7);
    expect(calendarDays(october)).toBe(7);
  });

  it('takes the local date, not the UTC one, to pick the week', () => {
    // Sunday 2026-03-15 23:30 UTC is Monday 2026-03-16 00:30 in Berlin: the next Berlin week.
    const p = weekPeriod(at('2026-03-15T23:30:00Z'), 'Europe/Berlin');
    expectPeriod(p, '2026-03-16T00:00:00+01:00', '2026-03-23T00:00:00+01:00', 'Europe/Berlin');
    // The same instant is still Sunday evening in New York.
    const ny = weekPeriod(at('2026-03-15T23:30:00Z'), 'America/New_York');
    expectPeriod(ny, '2026-03-09T00:00:00-04:00', '2026-03-16T00:00:00-04:00', 'America/New_York');
  });

  it('crosses a month boundary', () => {
    const p = weekPeriod(at('2026-03-01T10:00:00+01:00'), 'Europe/Berlin');
    expectPeriod(p, '2026-02-23T00:00:00+01:00', '2026-03-02T00:00:00+01:00', 'Europe/Berlin');
    expect(calendarDays(p)).toBe(7);
  });

  it('crosses a year boundary', () => {
    const p = weekPeriod(at('2027-01-01T12:00:00Z'), 'UTC');
    expectPeriod(p, '2026-12-28T00:00:00Z', '2027-01-04T00:00:00Z', 'UTC');
  });
});

describe('previousWeekPeriod', () => {
  it('is the week before the current one and ends where it starts', () => {
    const now = at('2026-03-30T10:00:00+02:00');
    const previous = previousWeekPeriod(now, 'Europe/Berlin');
    expectPeriod(previous, '2026-03-23T00:00:00+01:00', '2026-03-30T00:00:00+02:00', 'Europe/Berlin');
    expect(previous.end).toBe(weekPeriod(now, 'Europe/Berlin').start);
    expect(hours(previous)).toBe(167);
  });

  it('at the very first instant of a week is the week just ended', () => {
    const monday = at('2026-03-16T00:00:00Z');
    expectPeriod(previousWeekPeriod(monday, 'UTC'), '2026-03-09T00:00:00Z', '2026-03-16T00:00:00Z', 'UTC');
  });
});

describe('dayPeriod', () => {
  it('is 24 h on an ordinary day', () => {
    const p = dayPeriod(at('2026-03-11T12:00:00+01:00'), 'Europe/Berlin');
    expectPeriod(p, '2026-03-11T00:00:00+01:00', '2026-03-12T00:00:00+01:00', 'Europe/Berlin');
    expect(calendarDays(p)).toBe(1);
  });

  it('is 23 h on a spring-forward day and 25 h on a fall-back day', () => {
    const spring = dayPeriod(at('2026-03-29T12:00:00+02:00'), 'Europe/Berlin');
    expectPeriod(spring, '2026-03-29T00:00:00+01:00', '2026-03-30T00:00:00+02:00', 'Europe/Berlin');
    expect(hours(spring)).toBe(23);
    const fall = dayPeriod(at('2026-10-25T02:30:00+01:00'), 'Europe/Berlin');
    expectPeriod(fall, '2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00', 'Europe/Berlin');
    expect(hours(fall)).toBe(25);
    expect(hours(dayPeriod(at('2026-03-08T12:00:00-04:00'), 'America/New_York'))).toBe(23);
    expect(hours(dayPeriod(at('2026-11-01T12:00:00-05:00'), 'America/New_York'))).toBe(25);
    expect(calendarDays(spring)).toBe(1);
    expect(calendarDays(fall)).toBe(1);
  });

  it('is 24.5 h on the Lord Howe fall-back day', () => {
    const p = dayPeriod(at('2026-04-05T12:00:00+10:30'), 'Australia/Lord_Howe');
    expectPeriod(p, '2026-04-05T00:00:00+11:00', '2026-04-06T00:00:00+10:30', 'Australia/Lord_Howe');
    expect(hours(p)).toBe(24.5);
  });

  it('starts at the first existing instant when midnight is skipped', () => {
    const p = dayPeriod(at('2018-11-04T12:00:00-02:00'), 'America/Sao_Paulo');
    expectPeriod(p, '2018-11-04T01:00:00-02:00', '2018-11-05T00:00:00-02:00', 'America/Sao_Paulo');
    expect(hours(p)).toBe(23);
  });

  it('keeps both passes of a repeated hour before a fall-back across midnight in the old day', () => {
    // Beirut 2026-10-24: Saturday 23:00–24:00 happens twice; Sunday starts once, at 00:00 +02:00.
    const firstPass = dayPeriod(at('2026-10-24T23:30:00+03:00'), 'Asia/Beirut');
    const secondPass = dayPeriod(at('2026-10-24T23:30:00+02:00'), 'Asia/Beirut');
    expectPeriod(firstPass, '2026-10-24T00:00:00+03:00', '2026-10-25T00:00:00+02:00', 'Asia/Beirut');
    expect(secondPass).toEqual(firstPass);
    expect(hours(firstPass)).toBe(25);
  });
});

describe('monthPeriod', () => {
  it('runs from the 1st 00:00 to the next 1st 00:00', () => {
    const p = monthPeriod(at('2026-01-31T23:30:00+01:00'), 'Europe/Berlin');
    expectPeriod(p, '2026-01-01T00:00:00+01:00', '2026-02-01T00:00:00+01:00', 'Europe/Berlin');
    expect(calendarDays(p)).toBe(31);
  });

  it('moves to February once January 31 ends locally', () => {
    // 23:30 UTC on Jan 31 is already Feb 1 in Berlin.
    const p = monthPeriod(at('2026-01-31T23:30:00Z'), 'Europe/Berlin');
    expectPeriod(p, '2026-02-01T00:00:00+01:00', '2026-03-01T00:00:00+01:00', 'Europe/Berlin');
    expect(calendarDays(p)).toBe(28);
  });

  it('has 29 days in a leap February (2028-02-29)', () => {
    const p = monthPeriod(at('2028-02-29T12:00:00Z'), 'UTC');
    expectPeriod(p, '2028-02-01T00:00:00Z', '2028-03-01T00:00:00Z', 'UTC');
    expect(calendarDays(p)).toBe(29);
    expect(zonedParts(at('2028-02-29T12:00:00Z'), 'UTC').weekday).toBe(2);
  });

  it('counts 31 calendar days in a DST month of 743 h', () => {
    const p = monthPeriod(at('2026-03-15T12:00:00+01:00'), 'Europe/Berlin');
    expectPeriod(p, '2026-03-01T00:00:00+01:00', '2026-04-01T00:00:00+02:00', 'Europe/Berlin');
    expect(hours(p)).toBe(31 * 24 - 1);
    expect(calendarDays(p)).toBe(31);
  });

  it('rolls December over to January of the next year', () => {
    const p = monthPeriod(at('2026-12-31T23:59:59Z'), 'America/New_York');
    expectPeriod(p, '2026-12-01T00:00:00-05:00', '2027-01-01T00:00:00-05:00', 'America/New_York');
  });
});

describe('calendarDays', () => {
  it('counts every local date a custom range touches', () => {
    const p: Period = { start: at('2026-03-01T12:00:00Z'), end: at('2026-03-02T12:00:00Z'), timeZone: 'UTC' };
    expect(calendarDays(p)).toBe(2);
    expect(calendarDays({ ...p, end: at('2026-03-02T00:00:00Z') })).toBe(1);
    expect(calendarDays({ ...p, end: p.start })).toBe(0);
  });
});
