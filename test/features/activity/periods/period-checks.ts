/** Helpers of the period tests: expected instants from offset date-times, and the checks of a period and of its refusal. */
import { expect } from 'vitest';
import { AppError } from '../../../../src/shared/errors.ts';
import { PeriodError, type Period } from '../../../../src/features/activity/periods/periods.ts';

// Expected instants are written as offset date-times and parsed by the platform, independently of the code
// under test; the offsets are the ones the zone has at that wall-clock time (tzdb).
export const at = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad fixture ${iso}`);
  return ms;
};
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const hours = (p: Period): number => (p.end - p.start) / HOUR;

export function expectPeriod(p: Period, start: string, end: string, timeZone: string): void {
  expect(p).toEqual({ start: at(start), end: at(end), timeZone });
}

export function expectPeriodError(fn: () => unknown, reason: PeriodError['reason'], field: 'start' | 'end'): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(PeriodError);
  expect(caught).toBeInstanceOf(AppError);
  const error = caught as PeriodError;
  expect(error.reason).toBe(reason);
  expect(error.field).toBe(field);
  expect(error.code).toBe('validation_failed');
  expect(error.details).toEqual({ issues: [{ path: `/${field}`, message: error.message }] });
}
