/** The open-loop scenario's tables: idle cost, latencies per stream and request, and each phase's CPU and delays. */
import { cpuPercent, type OperationCost } from '../cpu.ts';
import { costCell, markdownTable, textTable } from '../tables.ts';
import type { OpenPhaseRecord, OpenRecord } from './measure.ts';
import { MIX_STREAMS } from './scenario.ts';

const fixed = (value: number, digits = 2) => value.toFixed(digits);
const percent = (value: number | null) => (value === null ? '-' : String(value));
const int = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });

function totalPercent(phase: OpenPhaseRecord): number {
  return (cpuPercent(phase.cpu.gatewayMs, phase.cpu.wallSeconds) ?? 0) + (cpuPercent(phase.cpu.databaseMs, phase.cpu.wallSeconds) ?? 0);
}

export function idleLine(record: OpenRecord): string {
  const idle = record.idle;
  return (
    `Idle (${idle.seconds} s without requests, after ${record.timing.settleSeconds} s of quiet; the timeout sweep, the ` +
    `webhook dispatcher and checkpoints run): gateway ${idle.gatewayMsPerSecond} CPU ms per second` +
    (idle.databaseMsPerSecond === null ? '' : `, database ${idle.databaseMsPerSecond} CPU ms per second`) +
    `; gateway event-loop delay p99 ${idle.serverLoop.p99} ms, max ${idle.serverLoop.max} ms.`
  );
}

const LATENCY_HEADER = ['level', 'phase', 'stream', 'request', 'rate /s', 'due', 'p50 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'errors'];

function latencyRows(record: OpenRecord): string[][] {
  return record.phases.flatMap((phase) =>
    phase.streams.flatMap((stream) =>
      stream.latency.map((row) => [
        phase.level,
        phase.phase === 'mix' ? 'mix' : 'alone',
        stream.name,
        row.kind ?? 'all',
        row.kind === null ? String(stream.rate) : '',
        String(row.count),
        fixed(row.p50),
        fixed(row.p99),
        fixed(row.p99_9),
        fixed(row.max),
        row.kind === null ? String(stream.errors + stream.unexpected) + (stream.errors + stream.unexpected > 0 ? ' (ERRORS)' : '') : '',
      ]),
    ),
  );
}

const PHASE_HEADER = [
  'level',
  'phase',
  'ops/s done',
  'gateway CPU %',
  'database CPU %',
  'alone, summed %',
  'operation',
  'CPU µs/op',
  'database µs/op',
  'x /health',
  'of which idle µs/op',
  'loop p99 ms',
  'loop max ms',
  'generator CPU %',
  'generator loop p99/max ms',
  'send lag p99/max ms',
  'sockets',
  'peak RSS MB',
];

function costCells(cost: OperationCost | null, health: OperationCost | null): string[] {
  if (!cost) return ['-', '-', '-', '-'];
  return [
    cost.unit,
    costCell(cost),
    cost.databaseUs === null ? '-' : fixed(cost.databaseUs, 0),
    health && health.totalUs > 0 ? fixed(cost.totalUs / health.totalUs, 1) : '-',
  ];
}

/** The idle cost's part of a stream's cost per operation at its rate: idle CPU per second over operations per second. */
function idleShare(record: OpenRecord, phase: OpenPhaseRecord): string {
  if (!phase.cost || phase.cpu.wallSeconds <= 0) return '-';
  const perSecond = phase.cost.operations / phase.cpu.wallSeconds;
  const idleMsPerSecond = record.idle.gatewayMsPerSecond + (record.idle.databaseMsPerSecond ?? 0);
  return perSecond > 0 ? fixed((idleMsPerSecond * 1000) / perSecond, 1) : '-';
}

function phaseRows(record: OpenRecord, health: OperationCost | null): string[][] {
  return record.phases.map((phase) => {
    // The mix's streams, each alone: what the mix's CPU is set beside.
    const alone = record.phases.filter((p) => p.level === phase.level && (MIX_STREAMS as readonly string[]).includes(p.phase));
    const done = phase.streams.reduce((sum, s) => sum + s.completed, 0) / Math.max(phase.cpu.wallSeconds, 0.001);
    return [
      phase.level,
      phase.phase,
      int(done),
      percent(cpuPercent(phase.cpu.gatewayMs, phase.cpu.wallSeconds)),
      percent(cpuPercent(phase.cpu.databaseMs, phase.cpu.wallSeconds)),
      phase.phase === 'mix' ? `${alone.reduce((sum, p) => sum + totalPercent(p), 0)} (mix: ${totalPercent(phase)})` : '',
      ...costCells(phase.cost, health),
      idleShare(record, phase),
      fixed(phase.serverLoop.p99, 1),
      fixed(phase.serverLoop.max, 1),
      String(phase.generatorCpuPercent),
      `${fixed(phase.generatorLoop.p99, 1)} / ${fixed(phase.generatorLoop.max, 1)}`,
      `${fixed(phase.sendLagMs.p99, 1)} / ${fixed(phase.sendLagMs.max, 1)}`,
      String(phase.socketsOpened),
      int(phase.serverPeakRssMb),
    ];
  });
}

/** The idle line, the latency table and the phase table, as console text or Markdown. */
export function openTables(record: OpenRecord, health: OperationCost | null, format: 'text' | 'markdown'): string[] {
  const table = (header: string[], rows: string[][], firstNumber: number) =>
    format === 'text' ? textTable(header, rows) : markdownTable(header, rows, (c) => c >= firstNumber);
  return [idleLine(record), table(LATENCY_HEADER, latencyRows(record), 4), table(PHASE_HEADER, phaseRows(record, health), 2)];
}
