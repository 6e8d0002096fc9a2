import { describe, expect, it } from 'vitest';
import {
  clipMs,
  mergeIntervals,
  overlaps,
  progressPercent,
  requirementForPeriod,
  roundHalfUp,
  totalSecondsFromMs,
  waivedForNotices,
  waivedMinutes,
  wholeMinutes,
} from '../../../../src/features/activity/periods/period-math.ts';
import { dayPeriod, monthPeriod, weekPeriod, type Period } from '../../../../src/features/activity/periods/periods.ts';

const at = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad fixture ${iso}`);
  return ms;
};
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BERLIN = 'Europe/Berlin';

/** The UTC week 2026-03-09 (Mon) .. 2026-03-16 (Mon). */
const utcWeek: Period = { start: at('2026-03-09T00:00:00Z'), end: at('2026-03-16T00:00:00Z'), timeZone: 'UTC' };

describe('clipMs and overlaps', () => {
  it('counts a shift inside the period in full', () => {
    const s = at('2026-03-10T10:00:00Z');
    expect(clipMs(s, s + 90 * MINUTE, utcWeek)).toBe(90 * MINUTE);
    expect(overlaps(s, s + 90 * MINUTE, utcWeek)).toBe(true);
  });

  it('splits a shift across local midnight between the two Berlin days', () => {
    const start = at('2026-03-10T23:30:00+01:00');
    const end = at('2026-03-11T00:45:00+01:00');
    const tuesday = dayPeriod(at('2026-03-10T12:00:00+01:00'), BERLIN);
    const wednesday = dayPeriod(at('2026-03-11T12:00:00+01:00'), BERLIN);
    expect(clipMs(start, end, tuesday)).toBe(30 * MINUTE);
    expect(clipMs(start, end, wednesday)).toBe(45 * MINUTE);
    expect(overlaps(start, end, tuesday)).toBe(true);
    expect(overlaps(start, end, wednesday)).toBe(true);
    // In UTC the whole shift (22:30–23:45Z) falls on Tuesday.
    const utcWednesday = dayPeriod(at('2026-03-11T12:00:00Z'), 'UTC');
    expect(overlaps(start, end, utcWednesday)).toBe(false);
    expect(clipMs(start, end, utcWednesday)).toBe(0);
  });

  it('splits a shift across the Berlin week boundary right after spring-forward', () => {
    const start = at('2026-03-29T23:00:00+02:00');
    const end = at('2026-03-30T01:00:00+02:00');
    const dstWeek = weekPeriod(at('2026-03-25T12:00:00+01:00'), BERLIN);
    const nextWeek = weekPeriod(at('2026-04-01T12:00:00+02:00'), BERLIN);
    expect(dstWeek.end).toBe(at('2026-03-30T00:00:00+02:00'));
    expect(clipMs(start, end, dstWeek)).toBe(HOUR);
    expect(clipMs(start, end, nextWeek)).toBe(HOUR);
  });

  it('splits a shift across the Berlin month boundary', () => {
    const start = at('2026-03-31T23:00:00+02:00');
    const end = at('2026-04-01T00:30:00+02:00');
    const march = monthPeriod(at('2026-03-15T12:00:00+01:00'), BERLIN);
    const april = monthPeriod(at('2026-04-15T12:00:00+02:00'), BERLIN);
    expect(clipMs(start, end, march)).toBe(HOUR);
    expect(clipMs(start, end, april)).toBe(30 * MINUTE);
    // The same shift lies entirely in March in UTC (21:00–22:30Z).
    const utcMarch = monthPeriod(at('2026-03-15T12:00:00Z'), 'UTC');
    expect(clipMs(start, end, utcMarch)).toBe(90 * MINUTE);
  });

  it('clips a shift longer than the period to the period', () => {
    expect(clipMs(utcWeek.start - DAY, utcWeek.end + DAY, utcWeek)).toBe(7 * DAY);
  });

  it('does not count a shift that only touches a boundary (half-open)', () => {
    expect(overlaps(utcWeek.start - HOUR, utcWeek.start, utcWeek)).toBe(false);
    expect(clipMs(utcWeek.start - HOUR, utcWeek.start, utcWeek)).toBe(0);
    expect(overlaps(utcWeek.end, utcWeek.end + HOUR, utcWeek)).toBe(false);
    expect(overlaps(utcWeek.end - 1, utcWeek.end + HOUR, utcWeek)).toBe(true);
    expect(clipMs(utcWeek.end - 1, utcWeek.end + HOUR, utcWeek)).toBe(1);
  });

  it('counts a zero-length shift when start <= startedAt < end', () => {
    expect(overlaps(utcWeek.start, utcWeek.start, utcWeek)).toBe(true);
    expect(overlaps(utcWeek.start + DAY, utcWeek.start + DAY, utcWeek)).toBe(true);
    expect(overlaps(utcWeek.end - 1, utcWeek.end - 1, utcWeek)).toBe(true);
    expect(overlaps(utcWeek.end, utcWeek.end, utcWeek)).toBe(false);
    expect(overlaps(utcWeek.start - 1, utcWeek.start - 1, utcWeek)).toBe(false);
    expect(clipMs(utcWeek.start, utcWeek.start, utcWeek)).toBe(0);
  });

  it('never counts a shift that ends before it starts', () => {
    expect(overlaps(utcWeek.start + 2 * HOUR, utcWeek.start + HOUR, utcWeek)).toBe(false);
    expect(clipMs(utcWeek.start + 2 * HOUR, utcWeek.start + HOUR, utcWeek)).toBe(0);
  });
});

describe('whole units', () => {
  it('rounds seconds down to whole minutes', () => {
    expect(wholeMinutes(0)).toBe(0);
    expect(wholeMinutes(59)).toBe(0);
    expect(wholeMinutes(60)).toBe(1);
    expect(wholeMinutes(3599)).toBe(59);
  });

  it('rounds milliseconds down to whole seconds', () => {
    expect(totalSecondsFromMs(999)).toBe(0);
    expect(totalSecondsFromMs(1000)).toBe(1);
    expect(totalSecondsFromMs(90 * MINUTE + 999)).toBe(5400);
  });

  it('floors the summed clipped milliseconds, not each shift', () => {
    // Two shifts of 30.6 s each: 61.2 s in total is 61 s and one minute, although each alone is zero minutes.
    const a = utcWeek.start + HOUR;
    const b = utcWeek.start + 2 * HOUR;
    const total = clipMs(a, a + 30_600, utcWeek) + clipMs(b, b + 30_600, utcWeek);
    expect(totalSecondsFromMs(total)).toBe(61);
    expect(wholeMinutes(totalSecondsFromMs(total))).toBe(1);
    expect(wholeMinutes(totalSecondsFromMs(30_600))).toBe(0);
  });
});

describe('requirementForPeriod', () => {
  it('is the weekly requirement for a week, DST or not', () => {
    expect(requirementForPeriod(120, utcWeek, 'calendar')).toBe(120);
    const dstWeek = weekPeriod(at('2026-03-29T12:00:00+02:00'), BERLIN);
    expect(requirementForPeriod(120, dstWeek, 'calendar')).toBe(120);
  });

  it('scales by calendar days for months', () => {
    const january = monthPeriod(at('2026-01-15T12:00:00Z'), 'UTC');
    expect(requirementForPeriod(120, january, 'calendar')).toBeCloseTo((120 * 31) / 7, 10);
    const february = monthPeriod(at('2026-02-15T12:00:00Z'), 'UTC');
    expect(requirementForPeriod(120, february, 'calendar')).toBe(480);
    const leapFebruary = monthPeriod(at('2028-02-15T12:00:00Z'), 'UTC');
    expect(requirementForPeriod(70, leapFebruary, 'calendar')).toBe(290);
    // March in Berlin has 743 h but 31 calendar days.
    const march = monthPeriod(at('2026-03-15T12:00:00+01:00'), BERLIN);
    expect(requirementForPeriod(70, march, 'calendar')).toBe(310);
  });

  it('scales by elapsed time for custom ranges', () => {
    const start = at('2026-03-09T00:00:00Z');
    expect(requirementForPeriod(120, { start, end: start + 3.5 * DAY, timeZone: 'UTC' }, 'custom')).toBe(60);
    expect(requirementForPeriod(168, { start, end: start + 167 * HOUR, timeZone: BERLIN }, 'custom')).toBe(167);
    expect(requirementForPeriod(0, { start, end: start + DAY, timeZone: 'UTC' }, 'custom')).toBe(0);
  });
});

describe('inactivity notice waivers', () => {
  it('waives pro rata for a notice covering part of the week, floored', () => {
    // Wed 00:00 – Fri 00:00: 2 of 7 days of 120 min = 34.28… → 34.
    expect(waivedMinutes(120, at('2026-03-11T00:00:00Z'), at('2026-03-13T00:00:00Z'), utcWeek)).toBe(34);
  });

  it('clips a notice to the period', () => {
    // From the previous Thursday to Tuesday 00:00: only Monday (1 day) lies in the week: 17.14… → 17.
    expect(waivedMinutes(120, at('2026-03-05T00:00:00Z'), at('2026-03-10T00:00:00Z'), utcWeek)).toBe(17);
    expect(waivedMinutes(120, at('2026-03-01T00:00:00Z'), at('2026-03-09T00:00:00Z'), utcWeek)).toBe(0);
  });

  it('waives everything for a notice covering the whole period', () => {
    expect(waivedMinutes(120, at('2026-03-01T00:00:00Z'), at('2026-04-01T00:00:00Z'), utcWeek)).toBe(120);
  });

  it('divides by the elapsed length of a DST week (167 h)', () => {
    const dstWeek = weekPeriod(at('2026-03-25T12:00:00+01:00'), BERLIN);
    // Tuesday in Berlin, 24 h of 167 h: 120 × 24 / 167 = 17.24… → 17.
    const tuesdayStart = at('2026-03-24T00:00:00+01:00');
    expect(waivedMinutes(120, tuesdayStart, tuesdayStart + DAY, dstWeek)).toBe(17);
    // The 23-hour Sunday is a whole day of the week: 1670 × 23 / 167 = 230.
    const sunday = dayPeriod(at('2026-03-29T12:00:00+02:00'), BERLIN);
    expect(waivedMinutes(1670, sunday.start, sunday.end, dstWeek)).toBe(230);
  });

  it('counts overlapping notices once', () => {
    // Mon–Wed and Tue–Thu together cover Mon–Thu: 3 of 7 days of 120 = 51.43 → 51 (not 34 + 34 = 68).
    const notices = [
      { start: at('2026-03-09T00:00:00Z'), end: at('2026-03-11T00:00:00Z') },
      { start: at('2026-03-10T00:00:00Z'), end: at('2026-03-12T00:00:00Z') },
    ];
    expect(waivedForNotices(120, notices, utcWeek)).toBe(51);
    expect(waivedForNotices(120, [...notices].reverse(), utcWeek)).toBe(51);
  });

  it('sums disjoint notices before flooring once', () => {
    // Mon 12 h and Wed 12 h: 1 of 7 days of 120 = 17.14 → 17 (flooring each half-day would give 8 + 8 = 16).
    const notices = [
      { start: at('2026-03-09T00:00:00Z'), end: at('2026-03-09T12:00:00Z') },
      { start: at('2026-03-11T00:00:00Z'), end: at('2026-03-11T12:00:00Z') },
    ];
    expect(waivedForNotices(120, notices, utcWeek)).toBe(17);
  });

  it('never waives more than the requirement', () => {
    const notices = [
      { start: at('2026-03-01T00:00:00Z'), end: at('2026-03-12T00:00:00Z') },
      { start: at('2026-03-10T00:00:00Z'), end: at('2026-04-01T00:00:00Z') },
    ];
    expect(waivedForNotices(120, notices, utcWeek)).toBe(120);
    expect(waivedForNotices(120, [], utcWeek)).toBe(0);
  });

  it('waives nothing when the requirement is zero', () => {
    expect(waivedMinutes(0, utcWeek.start, utcWeek.end, utcWeek)).toBe(0);
  });

  it('floors an exact integer waiver to itself despite float artefacts', () => {
    // 29 min/week over January (31 days), notice of 21 days: 29 × 31/7 × 21/31 = 87 exactly;
    // the naive float product is 86.99999999999999.
    const january = monthPeriod(at('2026-01-15T12:00:00Z'), 'UTC');
    const requirement = requirementForPeriod(29, january, 'calendar');
    expect(Math.floor((requirement * 21 * DAY) / (31 * DAY))).toBe(86);
    expect(waivedMinutes(requirement, january.start, january.start + 21 * DAY, january)).toBe(87);
  });
});

describe('mergeIntervals', () => {
  it('merges overlapping and touching intervals and drops empty ones', () => {
    expect(
      mergeIntervals([
        { start: 10, end: 20 },
        { start: 0, end: 5 },
        { start: 5, end: 8 },
        { start: 15, end: 30 },
        { start: 40, end: 40 },
        { start: 50, end: 45 },
      ]),
    ).toEqual([
      { start: 0, end: 8 },
      { start: 10, end: 30 },
    ]);
  });
});

describe('progressPercent', () => {
  it('is 100 when there is no requirement', () => {
    expect(progressPercent(0, 0)).toBe(100);
    expect(progressPercent(45, 0)).toBe(100);
  });

  it('rounds to two decimals', () => {
    expect(progressPercent(2, 3)).toBe(66.67);
    expect(progressPercent(1, 3)).toBe(33.33);
    expect(progressPercent(0, 120)).toBe(0);
    expect(progressPercent(60, 120)).toBe(50);
  });

  it('rounds half up', () => {
    expect(progressPercent(1, 800)).toBe(0.13); // 0.125
    expect(progressPercent(1, 160)).toBe(0.63); // 0.625
    expect(progressPercent(201, 160)).toBe(125.63); // 125.625
    expect(progressPercent(3, 1600)).toBe(0.19); // 0.1875
    expect(progressPercent(1, 1600)).toBe(0.06); // 0.0625
  });

  it('is not capped at 100', () => {
    expect(progressPercent(300, 120)).toBe(250);
  });

  it('divides by the unrounded scaled requirement', () => {
    // 120 min against 120 × 31 / 7 = 531.43 min: 22.580645… → 22.58.
    expect(progressPercent(120, (120 * 31) / 7)).toBe(22.58);
    expect(progressPercent(531, (120 * 31) / 7)).toBe(99.92);
  });
});

describe('roundHalfUp', () => {
  it('is immune to binary representation artefacts', () => {
    expect(roundHalfUp(1.005)).toBe(1.01);
    expect(roundHalfUp(1.255)).toBe(1.26);
    expect(roundHalfUp(1.0049999)).toBe(1);
    expect(roundHalfUp(0.1 + 0.2)).toBe(0.3);
    expect(roundHalfUp(-1.005)).toBe(-1.01);
    expect(roundHalfUp(2.5, 0)).toBe(3);
  });
});
