import { describe, expect, it } from 'vitest';
import { LatencyRecorder, percentile, summarize } from '../../bench/stats.ts';

const ascending = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 1);

describe('benchmark: latency percentiles', () => {
  it('takes the nearest rank: the smallest sample with at least p% at or below it', () => {
    const samples = ascending(100);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile(samples, 0)).toBe(1);
  });

  it('gives p99.9 of 1,000 samples as the 999th, and the largest when there are fewer', () => {
    expect(percentile(ascending(1000), 99.9)).toBe(999);
    expect(percentile(ascending(2000), 99.9)).toBe(1998);
    expect(percentile(ascending(500), 99.9)).toBe(500);
    expect(percentile(ascending(1), 99.9)).toBe(1);
  });

  it('is 0 without samples', () => {
    expect(percentile(new Float64Array(0), 99)).toBe(0);
    expect(summarize(new Float64Array(0))).toEqual({ count: 0, p50: 0, p99: 0, p99_9: 0, max: 0, mean: 0 });
  });

  it('records any number of samples, in any order, and summarizes them sorted', () => {
    const recorder = new LatencyRecorder();
    for (let i = 5000; i >= 1; i -= 1) recorder.add(i / 10);
    const summary = recorder.summary();
    expect(summary.count).toBe(5000);
    expect(summary.p50).toBe(250);
    expect(summary.p99).toBe(495);
    expect(summary.p99_9).toBe(499.5);
    expect(summary.max).toBe(500);
    expect(summary.mean).toBe(250.05);
  });
});
