/**
 * `--compare`: the CPU per operation of two builds measured interleaved (A, B, A, B), side by side with the ratio
 * of their means. Closed-loop scenarios (saturated) and the open loop's streams alone (at fixed rates).
 */
import type { OperationCost } from './cpu.ts';
import type { RunRecord } from './report.ts';
import { textTable } from './tables.ts';

export interface BuildRecord {
  readonly build: 'A' | 'B';
  readonly record: RunRecord;
}

/** Each measured figure of a record, by a key shared across records. */
function costs(record: RunRecord): Map<string, OperationCost> {
  const out = new Map<string, OperationCost>();
  for (const s of record.scenarios) {
    if (s.cost) out.set(s.phase === 'throughput' ? s.name : `${s.name} (${s.phase})`, s.cost);
  }
  for (const phase of record.open?.phases ?? []) {
    if (phase.cost) out.set(`open ${phase.level} ${phase.phase}`, phase.cost);
  }
  return out;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const cell = (values: readonly number[]) => (values.length === 0 ? '-' : values.map((v) => v.toFixed(1)).join(' · '));

export function compareTable(runs: readonly BuildRecord[]): string {
  const byBuild = { A: runs.filter((r) => r.build === 'A').map((r) => costs(r.record)), B: runs.filter((r) => r.build === 'B').map((r) => costs(r.record)) };
  const keys = [...new Set(runs.flatMap((r) => [...costs(r.record).keys()]))];
  const rows = keys.map((key) => {
    const a = byBuild.A.flatMap((m) => (m.has(key) ? [m.get(key)?.totalUs ?? 0] : []));
    const b = byBuild.B.flatMap((m) => (m.has(key) ? [m.get(key)?.totalUs ?? 0] : []));
    const unit = runs.map((r) => costs(r.record).get(key)?.unit).find((u) => u !== undefined) ?? '-';
    const ratio = a.length > 0 && b.length > 0 && mean(a) > 0 ? (mean(b) / mean(a)).toFixed(3) : '-';
    return [key, unit, cell(a), cell(b), ratio];
  });
  return textTable(['scenario', 'operation', 'A: CPU µs/op, each run', 'B: CPU µs/op, each run', 'B / A (means)'], rows);
}
