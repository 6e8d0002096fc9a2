import { describe, expect, it } from 'vitest';
import { RecentlyVerified } from '../../../src/auth/keys/api-key.ts';

describe('RecentlyVerified', () => {
  it('answers from the verification until the time to live has passed, inclusive', () => {
    const recent = new RecentlyVerified<string>(1_000, 10);
    recent.remember('a', 'A', 5_000);
    expect(recent.get('a', 5_000)).toBe('A');
    expect(recent.get('a', 6_000)).toBe('A');
    expect(recent.get('a', 6_001)).toBeUndefined();
    // An entry found stale is gone, not kept for a clock that goes back.
    expect(recent.get('a', 5_500)).toBeUndefined();
  });

  it('an entry with an earlier limit of its own ends there', () => {
    const recent = new RecentlyVerified<string>(1_000, 10);
    recent.remember('a', 'A', 5_000, 5_200);
    expect(recent.get('a', 5_200)).toBe('A');
    expect(recent.get('a', 5_201)).toBeUndefined();
    recent.remember('b', 'B', 5_000, 9_000);
    expect(recent.get('b', 6_000)).toBe('B');
    expect(recent.get('b', 6_001)).toBeUndefined();
  });

  it('never answers for an instant before the verification', () => {
    const recent = new RecentlyVerified<string>(1_000, 10);
    recent.remember('a', 'A', 5_000);
    expect(recent.get('a', 4_999)).toBeUndefined();
    expect(recent.get('a', 5_000)).toBeUndefined();
  });

  it('holds at most its capacity, dropping the least recently verified', () => {
    const recent = new RecentlyVerified<number>(1_000, 3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) recent.remember(key, i, 0);
    recent.remember('a', 10, 0);
    recent.remember('d', 3, 0);
    expect(recent.size).toBe(3);
    expect(recent.get('b', 0)).toBeUndefined();
    expect([recent.get('a', 0), recent.get('c', 0), recent.get('d', 0)]).toEqual([10, 2, 3]);
    recent.forget('a');
    expect(recent.get('a', 0)).toBeUndefined();
    expect(recent.size).toBe(2);
  });
});
