/** Results: one JSON record per run, its console tables and its Markdown section. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuPercent, type OperationCost } from './cpu.ts';
import type { GenerationStats } from './generate.ts';
import type { LoadResult } from './load.ts';
import type { MachineDescription } from './machine.ts';
import type { OpenRecord } from './open/measure.ts';
import { openTables } from './open/report.ts';
import type { ProfileName } from './profiles.ts';
import type { StoreName, TargetResult } from './targets.ts';
import { costCell, markdownTable, textTable } from './tables.ts';

/** 2: costs per operation and the open-loop scenario; the closed-loop throughput ratios are gone. */
export const RECORD_VERSION = 2;

export interface ScenarioRecord extends LoadResult {
  readonly name: string;
  readonly title: string;
  /**
   * `throughput`: the scenario at the run's connection count (32), the server saturated. `latency`: the same
   * requests at LATENCY_CONNECTIONS, where a request waits for little but its own work. `cold`: requests timed
   * one at a time.
   */
  readonly phase: 'throughput' | 'latency' | 'cold';
  /** CPU per operation over the phase; null when nothing was served. */
  readonly cost: OperationCost | null;
}

export interface RunRecord {
  readonly recordVersion: number;
  readonly store: StoreName;
  readonly mode: ProfileName;
  /** Options that change what is measured (--only, --duration, --server-bin, …): never written to docs. */
  readonly exploratory: boolean;
  readonly command: string;
  /** The gateway's entry point when it was not this checkout's. */
  readonly serverBin: string | null;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  readonly dataset: {
    readonly generatorVersion: number;
    readonly seed: number;
    readonly generatedFor: string;
    readonly bigWorkspace: { readonly staff: number; readonly shifts: number; readonly timezone: string };
    readonly smallWorkspaces: { readonly count: number; readonly staff: number; readonly shifts: number };
    readonly generation: GenerationStats & { readonly cached: boolean };
  };
  readonly load: {
    readonly connections: number;
    readonly durationSeconds: number;
    readonly warmupSeconds: number;
    /** The CPU the load generator was held on while measuring; null when it was not. */
    readonly loadGeneratorCpu: string | null;
  };
  /** How the database's CPU was counted: measured, or why not (SQLite runs inside the gateway). */
  readonly databaseCpu: string;
  readonly scenarios: ScenarioRecord[];
  readonly open: OpenRecord | null;
  readonly server: { readonly peakRssMb: number; readonly exitCode: number | null };
  readonly targets: TargetResult[];
  readonly failures: string[];
}

const n = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const passLabel = (pass: boolean | null): string => (pass === null ? 'n/a' : pass ? 'pass' : 'FAIL');


/** The cost over GET /health's in the same run. */
export function healthMultiple(cost: OperationCost | null | undefined, health: OperationCost | null | undefined): string {
  return cost && health && health.totalUs > 0 ? (cost.totalUs / health.totalUs).toFixed(1) : '-';
}

export function healthCost(record: RunRecord): OperationCost | null {
  return record.scenarios.find((s) => s.name === 'baseline')?.cost ?? null;
}

const percentCell = (value: number | null) => (value === null ? '-' : String(value));

const HEADER = [
  'scenario',
  'conns',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'non-2xx',
  'peak RSS MB',
  'gateway CPU %',
  'database CPU %',
  'operation',
  'CPU µs/op',
  'database µs/op',
  'x /health',
  'loop p99 ms',
  'loop max ms',
];

function scenarioRow(s: ScenarioRecord, health: OperationCost | null): string[] {
  return [
    s.phase === 'throughput' ? s.name : `${s.name} (${s.phase})`,
    String(s.connections),
    n(s.requestsPerSecond),
    s.latencyMs.p50.toFixed(2),
    s.latencyMs.p99.toFixed(2),
    String(s.errors),
    String(s.non2xx),
    n(s.serverPeakRssMb),
    percentCell(cpuPercent(s.cpu.gatewayMs, s.cpu.wallSeconds)),
    percentCell(cpuPercent(s.cpu.databaseMs, s.cpu.wallSeconds)),
    s.cost?.unit ?? '-',
    costCell(s.cost),
    s.cost?.databaseUs == null ? '-' : n(s.cost.databaseUs, 1),
    healthMultiple(s.cost, health),
    s.eventLoopDelayMs ? s.eventLoopDelayMs.p99.toFixed(1) : '-',
    s.eventLoopDelayMs ? s.eventLoopDelayMs.max.toFixed(1) : '-',
  ];
}

export function consoleTable(record: RunRecord): string {
  const health = healthCost(record);
  const targets = record.targets.map((t) => `  ${passLabel(t.pass).padEnd(4)}  ${t.target}: ${t.measured}`);
  const open = record.open ? openTables(record.open, health, 'text') : [];
  return [
    textTable(HEADER, record.scenarios.map((s) => scenarioRow(s, health))),
    ...open.flatMap((table) => ['', table]),
    '',
    `targets${record.mode === 'quick' ? ' (quick mode: informative only)' : ''} (recorded, not required: a missed one never fails the run):`,
    ...targets,
  ].join('\n');
}

/** The measured part of a run: machine, data, results and targets. */
export function runMarkdown(record: RunRecord, resultFile: string | null): string {
  const m = record.machine;
  const d = record.dataset;
  const g = d.generation;
  const health = healthCost(record);
  const scenarios = record.scenarios.map((s) => {
    const row = scenarioRow(s, health);
    row[0] = `\`${row[0] ?? s.name}\`: ${s.title}`;
    return row;
  });
  const lines = [
    `Run of ${record.startedAt} (${record.mode}${record.exploratory ? ', exploratory' : ''}): \`${record.command}\`` +
      (resultFile ? `, raw results in [\`${resultFile}\`](../${resultFile})` : '') +
      '.',
    '',
    markdownTable(
      ['machine', ''],
      [
        [
          'CPU',
          `${m.cpuModel}, ${m.cores} cores (shared by the server and the load generator` +
            (record.load.loadGeneratorCpu ? `, which was held on CPU ${record.load.loadGeneratorCpu})` : ')'),
        ],
        ['memory', `${m.memoryGb} GB`],
        ['OS', m.os],
        ['Node.js', m.node],
        ['store', m.engine],
        ['database CPU', record.databaseCpu],
        ['load average (1 min) at start / end', `${m.loadAverage.start} / ${m.loadAverage.end}`],
      ],
      () => false,
    ),
    '',
    `Data (generator v${d.generatorVersion}, seed ${d.seed}, generated for ${d.generatedFor}): one workspace of ` +
      `${n(d.bigWorkspace.staff)} staff and ${n(d.bigWorkspace.shifts)} completed shifts (${d.bigWorkspace.timezone}), plus ` +
      `${d.smallWorkspaces.count} workspaces of ${d.smallWorkspaces.staff} staff and ${n(d.smallWorkspaces.shifts)} shifts; ` +
      `${n(g.shifts)} shifts in all. ` +
      (g.cached
        ? `Reused from the cache (generated in ${g.seconds.toFixed(1)} s when it was made).`
        : `Generated in ${g.seconds.toFixed(1)} s (provisioning ${g.provisioningSeconds.toFixed(1)} s, shifts ${g.shiftSeconds.toFixed(1)} s: ` +
          `${n(g.shifts / Math.max(g.shiftSeconds, 0.001))} rows/s).`),
    '',
    `Closed loop: autocannon, ${record.load.connections} connections, ${record.load.warmupSeconds} s warm-up then ` +
      `${record.load.durationSeconds} s measured per scenario (the server saturated).`,
    '',
    markdownTable(HEADER, scenarios, (c) => c > 0),
  ];
  if (record.open) {
    const o = record.open;
    lines.push(
      '',
      `Open loop: each phase ${o.timing.warmupSeconds} s unmeasured then ${o.timing.phaseSeconds} s measured; ` +
        `idle measured over ${o.timing.idleSeconds} s after ${o.timing.settleSeconds} s of quiet; a cycle's stop is due ` +
        `${o.cycleHoldMs} ms after its start.`,
      ...openTables(o, health, 'markdown').flatMap((table) => ['', table]),
    );
  }
  lines.push(
    '',
    `Gateway peak RSS over the whole run (VmHWM): ${n(record.server.peakRssMb)} MB; it exited with code ` +
      `${record.server.exitCode ?? 'none (killed)'} on SIGTERM.`,
    '',
    markdownTable(
      ['target (recorded, not yet required)', 'measured', 'result'],
      record.targets.map((t) => [t.target, t.measured, passLabel(t.pass)]),
      () => false,
    ),
  );
  if (record.failures.length > 0) {
    lines.push('', '**Failures:**', '', ...record.failures.map((f) => `- ${f.split('\n')[0] ?? f}`));
  }
  return lines.join('\n');
}

/** The newest full, non-exploratory record of a store in `dir` in this record version, with its file name. */
export function latestRecord(dir: string, store: StoreName): { record: RunRecord; file: string } | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(`${store}-`) && f.endsWith('.json'))
    .sort()
    .reverse();
  for (const file of files) {
    const record = JSON.parse(readFileSync(join(dir, file), 'utf8')) as RunRecord;
    if (record.recordVersion === RECORD_VERSION && record.mode === 'full' && !record.exploratory) return { record, file };
  }
  return null;
}
