/** Latency statistics: nearest-rank percentiles over every sample, kept at full resolution. */

export const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The nearest-rank percentile of ascending `sorted`: the smallest sample with at least p% of the samples at or
 * below it. So p99.9 of 1,000 samples is the 999th, and of fewer than 1,000 it is the largest. 0 when empty.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  // The tolerance keeps a product such as 0.999 x 5,000 (4,995.000000000001 in floating point) at its rank.
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p * sorted.length) / 100 - 1e-9) - 1));
  return sorted[rank] ?? 0;
}

export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly p99_9: number;
  readonly max: number;
  readonly mean: number;
}

/** Samples in a growing Float64Array (no per-sample allocation while a phase runs). */
export class LatencyRecorder {
  private samples = new Float64Array(1024);
  private size = 0;

  add(value: number): void {
    if (this.size === this.samples.length) {
      const grown = new Float64Array(this.samples.length * 2);
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.size] = value;
    this.size += 1;
  }

  get count(): number {
    return this.size;
  }

  /** The samples in ascending order (a copy). */
  sorted(): Float64Array {
    return this.samples.slice(0, this.size).sort();
  }

  summary(): LatencySummary {
    return summarize(this.sorted());
  }
}

/** Percentiles of ascending samples, rounded to 0.01. */
export function summarize(sorted: Float64Array): LatencySummary {
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    p99_9: round(percentile(sorted, 99.9)),
    max: round(sorted[sorted.length - 1] ?? 0),
    mean: round(sorted.length > 0 ? sum / sorted.length : 0),
  };
}
