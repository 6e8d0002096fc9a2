import { describe, expect, it } from 'vitest';
import type { ShiftRow } from '../../../../src/features/activity/shifts/repository.ts';
import {
  assertRecentStart,
  clientInstant,
  isStale,
  refusalFor,
  staleBefore,
  wholeSecondsBetween,
} from '../../../../src/features/activity/shifts/rules.ts';

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

  it('a heartbeat or stop is refused by the first rule that applies: unknown, completed, timed out, server, start', () => {
    const shift: ShiftRow = {
      id: 's1',
      workspace_id: 'w',
      application_id: 'a',
      environment: 'test',
      staff_id: 'st',
      universe_id: '1',
      place_id: '2',
      server_id: 'srv-1',
      status: 'active',
      started_at: NOW - 60_000,
      last_heartbeat_at: NOW - 60_000,
      last_seen_at: NOW - 10_000,
      ended_at: null,
      end_reason: null,
      created_at: NOW - 60_000,
    };
    const write = { at: NOW, serverId: 'srv-1', staleBefore: staleBefore(NOW, 300) };
    expect(refusalFor(shift, write)).toBeNull();
    expect(refusalFor(shift, { ...write, serverId: null })).toBeNull();
    expect(refusalFor(shift, { ...write, at: shift.started_at })).toBeNull();
    expect(refusalFor(shift, { ...write, at: shift.started_at - 1 })).toBe('before_start');
    expect(refusalFor(shift, { ...write, at: 0, serverId: 'srv-2' })).toBe('server_mismatch');
    const stale = { ...write, at: 0, serverId: 'srv-2', staleBefore: NOW };
    expect(refusalFor(shift, stale)).toBe('timed_out');
    expect(refusalFor({ ...shift, status: 'completed' }, stale)).toBe('shift_not_active');
    expect(refusalFor(undefined, stale)).toBe('not_found');
  });
});
