/**
 * `--compare`: the CPU per operation of two or more builds measured interleaved (A, B, A, B), side by side with
 * each build's ratio of means over A's. Closed-loop scenarios (saturated) and the open loop's streams alone (at
 * fixed rates), then each run's peak RSS.
 */
import type { OperationCost } from './cpu.ts';
import type { RunRecord } from './report.ts';
import { textTable } from './tables.ts';

/** A build's label in a comparison: A for the first (this checkout's, or --server-bin's), then B, C, ... */
export type BuildLabel = string;

export function buildLabel(index: number): BuildLabel {
  return String.fromCharCode('A'.charCodeAt(0) + index);
}

export interface BuildRecord {
  readonly build: BuildLabel;
  readonly record: RunRecord;
}

/** The last row: the gateway's peak RSS over each run (VmHWM). */
const PEAK_RSS = 'gateway peak RSS over the run';

/** Each measured figure of a record, by a key shared across records. */
function costs(record: RunRecord): Map<string, Pick<OperationCost, 'unit' | 'totalUs'>> {
  const out = new Map<string, Pick<OperationCost, 'unit' | 'totalUs'>>();
  for (const s of record.scenarios) {
    if (s.cost) out.set(s.phase === 'throughput' ? s.name : `${s.name} (${s.phase})`, s.cost);
  }
  for (const phase of record.open?.phases ?? []) {
    if (phase.cost) out.set(`open ${phase.level} ${phase.phase}`, phase.cost);
  }
  // Not a cost, but compared the same way (a mean over A's).
  out.set(PEAK_RSS, { unit: 'MB', totalUs: record.server.peakRssMb });
  return out;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const cell = (values: readonly number[]) => (values.length === 0 ? '-' : values.map((v) => v.toFixed(1)).join(' · '));

/**
 * One row per figure: each build's runs, and each other build's mean over A's (above 1: it costs more than A).
 */
export function compareTable(runs: readonly BuildRecord[]): string {
  const labels = [...new Set(runs.map((r) => r.build))];
  const measured = runs.map((r) => ({ build: r.build, costs: costs(r.record) }));
  const keys = [...new Set(measured.flatMap((m) => [...m.costs.keys()]))];
  const values = (build: BuildLabel, key: string) =>
    measured.filter((m) => m.build === build).flatMap((m) => {
      const cost = m.costs.get(key);
      return cost ? [cost.totalUs] : [];
    });
  const [first, ...others] = labels;
  const rows = keys.map((key) => {
    const unit = measured.map((m) => m.costs.get(key)?.unit).find((u) => u !== undefined) ?? '-';
    const a = first === undefined ? [] : values(first, key);
    const ratios = others.map((label) => {
      const b = values(label, key);
      return a.length > 0 && b.length > 0 && mean(a) > 0 ? (mean(b) / mean(a)).toFixed(3) : '-';
    });
    return [key, unit, ...labels.map((label) => cell(values(label, key))), ...ratios];
  });
  return textTable(
    [
      'scenario',
      'operation',
      ...labels.map((label) => `${label}: CPU µs/op (RSS MB), each run`),
      ...others.map((label) => `${label} / ${first ?? 'A'} (means)`),
    ],
    rows,
  );
}
