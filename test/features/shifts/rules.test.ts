import { describe, expect, it } from 'vitest';
import {
  assertNotBeforeStart,
  assertRecentStart,
  clientInstant,
  isStale,
  staleBefore,
  wholeSecondsBetween,
} from '../../../src/features/shifts/rules.ts';

// Pure time rules: no store involved.
const NOW = Date.parse('2026-03-11T12:00:00.000Z');

describe('shift time rules', () => {
  it('a shift is stale only when last seen more than the timeout ago', () => {
    const cutoff = staleBefore(NOW, 300);
    expect(isStale({ status: 'active', last_seen_at: NOW - 300_000 }, cutoff)).toBe(false);
    expect(isStale({ status: 'active', last_seen_at: NOW - 300_001 }, cutoff)).toBe(true);
    expect(isStale({ status: 'completed', last_seen_at: 0 }, cutoff)).toBe(false);
  });

  it('whole seconds are rounded down and never negative', () => {
    expect(wholeSecondsBetween(NOW, NOW + 59_999)).toBe(59);
    expect(wholeSecondsBetween(NOW, NOW + 60_000)).toBe(60);
    expect(wholeSecondsBetween(NOW, NOW - 5_000)).toBe(0);
  });

  it('a client instant defaults to the server clock and may be at most 60 s ahead', () => {
    expect(clientInstant('recordedAt', undefined, NOW)).toBe(NOW);
    expect(clientInstant('recordedAt', '2026-03-11T12:01:00Z', NOW)).toBe(NOW + 60_000);
    expect(() => clientInstant('recordedAt', '2026-03-11T12:01:00.001Z', NOW)).toThrow(/60 seconds/);
    expect(() => clientInstant('recordedAt', '2026-03-11 12:00:00Z', NOW)).toThrow(/ISO 8601/);
  });

  it('a start may be at most 24 hours old', () => {
    expect(() => assertRecentStart(NOW - 24 * 3_600_000, NOW)).not.toThrow();
    expect(() => assertRecentStart(NOW - 24 * 3_600_000 - 1, NOW)).toThrow(/24 hours/);
  });

  it('heartbeat and stop times may not precede the start', () => {
    expect(() => assertNotBeforeStart('endedAt', NOW, NOW)).not.toThrow();
    expect(() => assertNotBeforeStart('endedAt', NOW - 1, NOW)).toThrow(/startedAt/);
  });
});
