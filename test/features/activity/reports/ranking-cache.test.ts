import { describe, expect, it } from 'vitest';
import { RankingCache, type RankingEntry } from '../../../../src/features/activity/reports/ranking-cache.ts';

function counter(ranked: number[], validUntil = 1_000) {
  let calls = 0;
  const compute = async (): Promise<RankingEntry<number>> => {
    calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { ranked, validFrom: 0, validUntil };
  };
  return { compute, calls: () => calls };
}

describe('RankingCache', () => {
  it('computes once for concurrent readers of one key and version, and serves the result after', async () => {
    const cache = new RankingCache<number>();
    const c = counter([1, 2, 3]);
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.get('k', 1, 0, c.compute)));
    expect(results.every((r) => r.join() === '1,2,3')).toBe(true);
    expect(c.calls()).toBe(1);
    await cache.get('k', 1, 500, c.compute);
    expect(c.calls()).toBe(1);
  });

  it('computes again for a new version, after validUntil, and after a failed computation', async () => {
    const cache = new RankingCache<number>();
    const c = counter([1], 100);
    await cache.get('k', 1, 0, c.compute);
    await cache.get('k', 1, 100, c.compute);
    expect(c.calls()).toBe(1);
    await cache.get('k', 1, 101, c.compute);
    expect(c.calls()).toBe(2);
    await cache.get('k', 2, 0, c.compute);
    expect(c.calls()).toBe(3);

    const failing = async (): Promise<RankingEntry<number>> => Promise.reject(new Error('store down'));
    await expect(cache.get('f', 1, 0, failing)).rejects.toThrow('store down');
    const ok = counter([7]);
    expect(await cache.get('f', 1, 0, ok.compute)).toEqual([7]);
    expect(ok.calls()).toBe(1);
  });

  it('computes again for an instant before the one the kept ranking was computed for', async () => {
    const cache = new RankingCache<number>();
    const later = async (): Promise<RankingEntry<number>> => ({ ranked: [1], validFrom: 50, validUntil: 100 });
    await cache.get('k', 1, 50, later);
    const c = counter([2]);
    expect(await cache.get('k', 1, 49, c.compute)).toEqual([2]);
    expect(c.calls()).toBe(1);
  });

  it('a reader of an older version than the kept one neither gets nor replaces it', async () => {
    const cache = new RankingCache<number>();
    await cache.get('k', 5, 0, counter([5]).compute);
    const old = counter([4]);
    expect(await cache.get('k', 4, 0, old.compute)).toEqual([4]);
    const fresh = counter([6]);
    expect(await cache.get('k', 5, 0, fresh.compute)).toEqual([5]);
    expect(fresh.calls()).toBe(0);
  });

  it('keeps at most its capacity, dropping the least recently used', async () => {
    const cache = new RankingCache<number>(2);
    await cache.get('a', 1, 0, counter([1]).compute);
    await cache.get('b', 1, 0, counter([2]).compute);
    await cache.get('a', 1, 0, counter([9]).compute); // a is now the most recently used
    await cache.get('c', 1, 0, counter([3]).compute);
    expect(cache.size).toBe(2);
    const a = counter([11]);
    expect(await cache.get('a', 1, 0, a.compute)).toEqual([1]);
    expect(a.calls()).toBe(0);
    const b = counter([22]);
    expect(await cache.get('b', 1, 0, b.compute)).toEqual([22]);
    expect(b.calls()).toBe(1);
  });
});
