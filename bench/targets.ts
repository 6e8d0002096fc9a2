/** The performance targets (reported with pass/fail; a run never fails on speed). */
import type { LoadResult } from './load.js';

export type StoreName = 'sqlite' | 'postgres';

export interface TargetResult {
  readonly target: string;
  readonly measured: string;
  /** null when the scenario was not run. */
  readonly pass: boolean | null;
}

export const PEAK_RSS_LIMIT_MB = 250;

/**
 * Read scenarios with a p50 target are measured twice: at the run's 32 connections (throughput; p50 is then
 * mostly queueing, about 32 / throughput) and at this many connections, where p50 is the time a request takes.
 * The read targets are latency targets, so they are judged on the second; both are reported.
 */
export const LATENCY_CONNECTIONS = 4;
export const LATENCY_SCENARIOS: readonly string[] = ['summary', 'staff-month', 'leaderboard-week', 'leaderboard-week-deep'];

/** Key of a scenario's latency-phase result in the results map. */
export const latencyKey = (name: string) => `${name}@latency`;

const HEARTBEAT_RATIO: Record<StoreName, number> = { sqlite: 0.5, postgres: 0.3 };

export function evaluateTargets(
  store: StoreName,
  results: ReadonlyMap<string, LoadResult & { readonly ratioToBaseline: number | null }>,
  serverPeakRssMb: number,
): TargetResult[] {
  const out: TargetResult[] = [];
  const heartbeat = results.get('heartbeat');
  const ratio = HEARTBEAT_RATIO[store];
  out.push({
    target: `heartbeat throughput >= ${ratio} x baseline`,
    measured: heartbeat?.ratioToBaseline == null ? 'not run' : `${heartbeat.ratioToBaseline.toFixed(3)} x`,
    pass: heartbeat?.ratioToBaseline == null ? null : heartbeat.ratioToBaseline >= ratio,
  });
  out.push({
    target: 'heartbeat p99 <= 25 ms at 32 connections',
    measured: heartbeat ? `${heartbeat.latencyMs.p99} ms at ${heartbeat.connections}` : 'not run',
    pass: heartbeat ? heartbeat.latencyMs.p99 <= 25 : null,
  });
  const p50 = (name: string, limitMs: number, label: string) => {
    const latency = results.get(latencyKey(name));
    const saturated = results.get(name);
    out.push({
      target: `${label} p50 <= ${limitMs} ms (at ${LATENCY_CONNECTIONS} connections)`,
      measured: latency
        ? `${latency.latencyMs.p50} ms at ${latency.connections}` +
          (saturated ? ` (${saturated.latencyMs.p50} ms at ${saturated.connections}, saturated)` : '')
        : 'not run',
      pass: latency ? latency.latencyMs.p50 <= limitMs : null,
    });
  };
  p50('leaderboard-week', 30, 'week leaderboard page 1');
  p50('leaderboard-week-deep', 30, 'week leaderboard deep page');
  p50('summary', 5, 'summary');
  p50('staff-month', 5, 'per-staff month aggregates');
  out.push({
    target: `server peak RSS <= ${PEAK_RSS_LIMIT_MB} MB`,
    measured: `${serverPeakRssMb.toFixed(0)} MB`,
    pass: serverPeakRssMb <= PEAK_RSS_LIMIT_MB,
  });
  return out;
}
