/**
 * The results table of docs/BENCHMARKS.md: the newest full run of each store side by side, in CPU per operation
 * and latency at fixed rates. Written from the runs' result files only, so the doc never states a figure twice.
 */
import type { OperationCost } from './cpu.ts';
import type { OpenLatencyRow, OpenPhaseRecord } from './open/measure.ts';
import { OPEN_LEVELS, READ_KINDS, type LevelName, type StreamName } from './open/scenario.ts';
import { healthCost, type RunRecord } from './report.ts';
import { costCell, markdownTable } from './tables.ts';
import type { StoreName } from './targets.ts';

/** What the doc says where a store has no full run in these units yet. */
export const NO_RUN_YET = '(no full run recorded yet in these units)';

type Cell = (record: RunRecord) => string;

const µs = (cost: OperationCost | null | undefined) => (cost ? `${costCell(cost)} µs` : '-');
const msCell = (value: number | null | undefined) => (value === null || value === undefined ? '-' : `${value.toFixed(2)} ms`);

function closed(record: RunRecord, name: string): OperationCost | null {
  return record.scenarios.find((s) => s.name === name && s.phase === 'throughput')?.cost ?? null;
}

function phase(record: RunRecord, level: LevelName, name: string): OpenPhaseRecord | undefined {
  return record.open?.phases.find((p) => p.level === level && p.phase === name);
}

function latency(record: RunRecord, level: LevelName, phaseName: string, stream: string, kind: string | null = null): OpenLatencyRow | undefined {
  return phase(record, level, phaseName)?.streams.find((s) => s.name === stream)?.latency.find((r) => r.kind === kind);
}

/** `cost` as a multiple of `base`, to one decimal, or null when either is missing. */
function multiple(cost: OperationCost | null | undefined, base: OperationCost | null | undefined): string | null {
  return cost && base && base.totalUs > 0 ? (cost.totalUs / base.totalUs).toFixed(1) : null;
}

function times(cost: OperationCost | null | undefined, base: OperationCost | null | undefined): string {
  const x = multiple(cost, base);
  return x === null ? '' : ` (${x} x)`;
}

const rate = (level: LevelName, stream: StreamName) =>
  (OPEN_LEVELS.find((l) => l.name === level)?.rates[stream] ?? 0).toLocaleString('en-US');

const ROWS: ReadonlyArray<readonly [string, Cell]> = [
  ['`GET /health`: CPU per request, saturated', (r) => µs(closed(r, 'baseline'))],
  ['heartbeat: CPU per request, saturated', (r) => µs(closed(r, 'heartbeat')) + times(closed(r, 'heartbeat'), healthCost(r))],
  ...(['busy', 'heavy'] as const).flatMap((level) => [
    [`\`GET /health\`: CPU per request at ${rate(level, 'health')}/s (x saturated)`, (r: RunRecord) => µs(phase(r, level, 'health')?.cost) + times(phase(r, level, 'health')?.cost, closed(r, 'baseline'))] as const,
    [
      `heartbeat: CPU per request at ${rate(level, 'heartbeats')}/s, alone`,
      (r: RunRecord) => {
        const cost = phase(r, level, 'heartbeats')?.cost;
        const multiples = [
          [multiple(cost, closed(r, 'heartbeat')), 'saturated'],
          [multiple(cost, phase(r, level, 'health')?.cost), '`/health` at that rate'],
        ].flatMap(([x, of]) => (x === null ? [] : [`${x} x ${of}`]));
        return µs(cost) + (multiples.length > 0 ? ` (${multiples.join('; ')})` : '');
      },
    ] as const,
  ]),
  ['batch heartbeat: CPU per batch (per shift), saturated', (r) => µs(closed(r, 'heartbeat-batch'))],
  [`batch heartbeat: CPU per batch (per shift) at ${rate('busy', 'batches')}/s, alone`, (r) => µs(phase(r, 'busy', 'batches')?.cost)],
  ['start + stop: CPU per cycle, saturated', (r) => µs(closed(r, 'start-stop'))],
  [`start + stop: CPU per cycle at ${rate('busy', 'cycles')}/s, alone`, (r) => µs(phase(r, 'busy', 'cycles')?.cost)],
  ['week leaderboard page 1: CPU per read, saturated', (r) => µs(closed(r, 'leaderboard-week'))],
  [`reads in turn: CPU per read at ${rate('busy', 'reads')}/s, alone`, (r) => µs(phase(r, 'busy', 'reads')?.cost)],
  [
    'idle: CPU ms per second (gateway; database)',
    (r) => (r.open ? `${r.open.idle.gatewayMsPerSecond}; ${r.open.idle.databaseMsPerSecond ?? '-'}` : '-'),
  ],
  ...(['busy', 'heavy'] as const).flatMap((level) => [
    [
      `${level} mix: gateway event-loop delay p99 / max`,
      (r: RunRecord) => {
        const loop = phase(r, level, 'mix')?.serverLoop;
        return loop ? `${loop.p99.toFixed(1)} / ${loop.max.toFixed(1)} ms` : '-';
      },
    ] as const,
    [
      `${level} mix: heartbeat p50 / p99 / p99.9`,
      (r: RunRecord) => {
        const row = latency(r, level, 'mix', 'heartbeats');
        return row ? `${row.p50.toFixed(2)} / ${row.p99.toFixed(2)} / ${row.p99_9.toFixed(2)} ms` : '-';
      },
    ] as const,
    [`${level} mix: batch p99`, (r: RunRecord) => msCell(latency(r, level, 'mix', 'batches')?.p99)] as const,
    [
      `${level} mix: start p99, stop p99`,
      (r: RunRecord) => `${msCell(latency(r, level, 'mix', 'cycles', 'start')?.p99)}, ${msCell(latency(r, level, 'mix', 'cycles', 'stop')?.p99)}`,
    ] as const,
    ...READ_KINDS.map(
      (kind) =>
        [
          `${level} mix: ${kind} p99 (alone at the same rate)`,
          (r: RunRecord) => `${msCell(latency(r, level, 'mix', 'reads', kind)?.p99)} (${msCell(latency(r, level, 'reads', 'reads', kind)?.p99)})`,
        ] as const,
    ),
    [
      `${level} mix: load generator's CPU, loop delay p99 / max, send lag p99`,
      (r: RunRecord) => {
        const p = phase(r, level, 'mix');
        return p
          ? `${p.generatorCpuPercent}%, ${p.generatorLoop.p99.toFixed(1)} / ${p.generatorLoop.max.toFixed(1)} ms, ${p.sendLagMs.p99.toFixed(1)} ms`
          : '-';
      },
    ] as const,
  ]),
  ['gateway peak RSS over the run', (r) => `${Math.round(r.server.peakRssMb)} MB`],
  ['failures (errors, wrong answers)', (r) => (r.failures.length === 0 ? 'none' : `${r.failures.length}: see the store's section`)],
  ['run (load average at start / end)', (r) => `${r.startedAt.slice(0, 16).replace('T', ' ')} UTC (${r.machine.loadAverage.start} / ${r.machine.loadAverage.end})`],
];

/** The side-by-side table, or the placeholder when neither store has a full run in these units. */
export function resultsSummary(records: Readonly<Record<StoreName, RunRecord | null>>): string {
  const stores = ['sqlite', 'postgres'] as const;
  if (stores.every((s) => records[s] === null)) return NO_RUN_YET;
  const rows = ROWS.map(([label, cell]) => [label, ...stores.map((s) => (records[s] ? cell(records[s]) : NO_RUN_YET))]);
  return markdownTable(['figure', 'SQLite', 'PostgreSQL'], rows, (c) => c > 0);
}
