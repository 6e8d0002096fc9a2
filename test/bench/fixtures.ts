/** Synthetic benchmark results for the tests of targets, reports and the generated doc. */
import type { OperationCost } from '../../bench/cpu.ts';
import type { OpenLatencyRow, OpenPhaseRecord, OpenRecord } from '../../bench/open/measure.ts';
import { RECORD_VERSION, type RunRecord, type ScenarioRecord } from '../../bench/report.ts';
import type { StoreName } from '../../bench/targets.ts';

export const cost = (unit: string, totalUs: number, shiftsPerOperation?: number): OperationCost => ({
  unit,
  operations: 1000,
  gatewayUs: totalUs,
  databaseUs: null,
  totalUs,
  ...(shiftsPerOperation === undefined ? {} : { shiftsPerOperation }),
});

export function scenario(name: string, phase: ScenarioRecord['phase'], values: { cost?: OperationCost; p50?: number; rss?: number }): ScenarioRecord {
  const p50 = values.p50 ?? 1;
  return {
    name,
    title: name,
    phase,
    connections: 32,
    durationSeconds: 10,
    requests: 1000,
    requestsPerSecond: 100,
    latencyMs: { p50, p99: p50 * 2, max: p50 * 3, mean: p50 },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    statusCounts: { '200': 1000 },
    serverPeakRssMb: values.rss ?? 200,
    cpu: { wallSeconds: 10, gatewayMs: 1000, databaseMs: null },
    clientCpuPercent: 50,
    cost: values.cost ?? null,
  };
}

const row = (kind: string | null, p99: number): OpenLatencyRow => ({ kind, count: 1000, p50: p99 / 4, p99, p99_9: p99 * 1.5, max: p99 * 2, mean: p99 / 3 });

function phase(level: 'busy' | 'heavy', name: OpenPhaseRecord['phase'], values: Partial<OpenPhaseRecord>): OpenPhaseRecord {
  return {
    level,
    phase: name,
    measureSeconds: 24,
    streams: [],
    cpu: { wallSeconds: 24, gatewayMs: 5000, databaseMs: null },
    cost: null,
    serverLoop: { p50: 0, p99: 1, max: 2, samples: 2400 },
    generatorLoop: { p99: 0.5, max: 1 },
    generatorCpuPercent: 20,
    sendLagMs: { p50: 0.3, p99: 1, max: 2 },
    socketsOpened: 4,
    serverPeakRssMb: 210,
    ...values,
  };
}

const stream = (name: 'heartbeats' | 'reads', latency: OpenLatencyRow[]) => ({
  name,
  rate: 700,
  scheduled: 1000,
  completed: 1000,
  errors: 0,
  unexpected: 0,
  statusCounts: { '200': 1000 },
  problems: [],
  latency,
});

export const open: OpenRecord = {
  timing: { settleSeconds: 2, idleSeconds: 10, warmupSeconds: 2, phaseSeconds: 24 },
  cycleHoldMs: 250,
  idle: { seconds: 10, gatewayMsPerSecond: 2, databaseMsPerSecond: null, serverLoop: { p50: 0, p99: 0.1, max: 1, samples: 1000 } },
  phases: [
    phase('busy', 'health', { cost: cost('request', 125) }),
    phase('busy', 'heartbeats', { cost: cost('heartbeat', 500) }),
    phase('busy', 'batches', { cost: cost('batch', 400, 50) }),
    phase('busy', 'cycles', { cost: cost('cycle', 700) }),
    phase('busy', 'reads', { cost: cost('read', 900), streams: [stream('reads', [row(null, 6), row('leaderboard-week', 4), row('summary', 5)])] }),
    phase('busy', 'mix', {
      serverLoop: { p50: 1, p99: 6, max: 18, samples: 2400 },
      streams: [stream('heartbeats', [row(null, 9)]), stream('reads', [row(null, 9), row('leaderboard-week', 7), row('summary', 12)])],
    }),
  ],
};

export const scenarios = [
  scenario('baseline', 'throughput', { cost: cost('request', 40) }),
  scenario('heartbeat', 'throughput', { cost: cost('heartbeat', 200) }),
  scenario('heartbeat-batch', 'throughput', { cost: cost('batch', 800, 50) }),
  scenario('leaderboard-week', 'throughput', { cost: cost('request', 240), rss: 230 }),
  scenario('leaderboard-week', 'latency', { p50: 2 }),
  scenario('summary', 'latency', { p50: 6 }),
];

export function runRecord(store: StoreName, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    recordVersion: RECORD_VERSION,
    store,
    mode: 'full',
    exploratory: false,
    command: 'npm run bench',
    serverBin: null,
    startedAt: '2026-12-01T10:00:00.000Z',
    finishedAt: '2026-12-01T10:09:00.000Z',
    machine: { cpuModel: 'Test CPU', cores: 2, memoryGb: 8, os: 'Linux', node: 'v24.0.0', engine: 'SQLite 3', loadAverage: { start: 0.1, end: 1.2 } },
    dataset: {
      generatorVersion: 1,
      seed: 1,
      generatedFor: '2026-12-01T09:00:00.000Z',
      bigWorkspace: { staff: 5000, shifts: 1_000_000, timezone: 'Europe/Berlin' },
      smallWorkspaces: { count: 50, staff: 20, shifts: 2000 },
      generation: { seconds: 60, provisioningSeconds: 2, shiftSeconds: 58, shifts: 1_100_000, staff: 6000, workspaces: 51, cached: true },
    },
    load: { connections: 32, durationSeconds: 10, warmupSeconds: 2, loadGeneratorCpu: '1' },
    databaseCpu: 'none apart: SQLite runs inside the gateway process',
    scenarios,
    open,
    server: { peakRssMb: 240, exitCode: 0 },
    targets: [],
    failures: [],
    ...overrides,
  };
}
