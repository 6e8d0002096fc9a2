/** Results: one JSON record per run, its console table and its Markdown section. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerationStats } from './generate.ts';
import type { LoadResult } from './load.ts';
import type { MachineDescription } from './machine.ts';
import type { ProfileName } from './profiles.ts';
import type { StoreName, TargetResult } from './targets.ts';

export const RECORD_VERSION = 1;

export interface ScenarioRecord extends LoadResult {
  readonly name: string;
  readonly title: string;
  /**
   * `throughput`: the scenario at the run's connection count (32), the server saturated. `latency`: the same
   * requests at LATENCY_CONNECTIONS, where a request waits for little but its own work (read scenarios with a
   * latency target). Records before this field are throughput records.
   */
  readonly phase?: 'throughput' | 'latency' | 'cold' | 'alone' | 'mixed';
  /** Requests per second over the baseline's in the same run (null for the baseline itself or without one). */
  readonly ratioToBaseline: number | null;
}

export interface RunRecord {
  readonly recordVersion: number;
  readonly store: StoreName;
  readonly mode: ProfileName;
  /** Options that change what is measured (--only, --no-baseline, --duration, --connections): never written to docs. */
  readonly exploratory: boolean;
  readonly command: string;
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
    /** The CPU the load generator was held on while measuring; null (or absent, in older records) when it was not. */
    readonly loadGeneratorCpu?: string | null;
  };
  readonly scenarios: ScenarioRecord[];
  readonly server: { readonly peakRssMb: number; readonly exitCode: number | null };
  readonly targets: TargetResult[];
  readonly failures: string[];
}

const n = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const passLabel = (pass: boolean | null) => (pass === null ? 'n/a' : pass ? 'pass' : 'FAIL');

function scenarioRow(s: ScenarioRecord): string[] {
  return [
    s.name,
    String(s.connections),
    n(s.requestsPerSecond),
    s.ratioToBaseline === null ? '-' : s.ratioToBaseline.toFixed(3),
    s.latencyMs.p50.toFixed(2),
    s.latencyMs.p97_5.toFixed(2),
    s.latencyMs.p99.toFixed(2),
    String(s.errors),
    String(s.non2xx),
    n(s.serverPeakRssMb),
    String(s.serverCpuPercent),
    s.serverCpuMsPerRequest.toFixed(2),
    s.eventLoopDelayMs ? s.eventLoopDelayMs.p99.toFixed(1) : '-',
  ];
}

const HEADER = ['scenario', 'conns', 'req/s', 'x baseline', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors', 'non-2xx', 'peak RSS MB', 'server CPU %', 'CPU ms/req', 'loop p99 ms'];

export function consoleTable(record: RunRecord): string {
  const rows = [HEADER, ...record.scenarios.map(scenarioRow)];
  const widths = HEADER.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
  const targets = record.targets.map((t) => `  ${passLabel(t.pass).padEnd(4)}  ${t.target}: ${t.measured}`);
  return [
    line(HEADER),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.slice(1).map(line),
    '',
    `targets${record.mode === 'quick' ? ' (quick mode: informative only)' : ''}:`,
    ...targets,
  ].join('\n');
}

function markdownTable(header: string[], rows: string[][], rightAligned: (c: number) => boolean): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [
    `| ${header.map(escape).join(' | ')} |`,
    `|${header.map((_, c) => (rightAligned(c) ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}

/** The measured part of a run: machine, data, results and targets. */
export function runMarkdown(record: RunRecord, resultFile: string | null): string {
  const m = record.machine;
  const d = record.dataset;
  const g = d.generation;
  const scenarios = record.scenarios.map((s) => {
    const row = scenarioRow(s);
    row[0] = `\`${s.name}\`: ${s.title}`;
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
    `Load: autocannon, ${record.load.connections} connections, ${record.load.warmupSeconds} s warm-up then ` +
      `${record.load.durationSeconds} s measured per scenario. Latencies are per request at full resolution; ` +
      '"x baseline" is the throughput over GET /health in the same run; server CPU is the server process\'s CPU time ' +
      'over wall time (100 = one core), and CPU ms/req that time per response: the cost of a request apart from ' +
      'queueing (at 32 connections, latency is mostly queueing: about 32 / throughput).',
    '',
    markdownTable(HEADER, scenarios, (c) => c > 0),
    '',
    `Server peak RSS over the whole run (VmHWM): ${n(record.server.peakRssMb)} MB; the server exited with code ` +
      `${record.server.exitCode ?? 'none (killed)'} on SIGTERM.`,
    '',
    markdownTable(
      ['target', 'measured', 'result'],
      record.targets.map((t) => [t.target, t.measured, passLabel(t.pass)]),
      () => false,
    ),
  ];
  if (record.failures.length > 0) {
    lines.push('', '**Failures:**', '', ...record.failures.map((f) => `- ${f.split('\n')[0] ?? f}`));
  }
  return lines.join('\n');
}

/** The newest full, non-exploratory record of a store in `dir`, with its file name. */
export function latestRecord(dir: string, store: StoreName): { record: RunRecord; file: string } | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(`${store}-`) && f.endsWith('.json'))
    .sort()
    .reverse();
  for (const file of files) {
    const record = JSON.parse(readFileSync(join(dir, file), 'utf8')) as RunRecord;
    if (record.mode === 'full' && !record.exploratory) return { record, file };
  }
  return null;
}
