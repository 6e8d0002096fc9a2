/** Tables for the console (aligned columns) and for Markdown, and the cells they share. */
import type { OperationCost } from './cpu.ts';

const n = (value: number, digits: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A cost per operation in µs: "207", "45.2", or "812 (16.2 /shift)" for a batch. */
export function costCell(cost: OperationCost | null | undefined): string {
  if (!cost) return '-';
  const total = n(cost.totalUs, cost.totalUs < 100 ? 1 : 0);
  return cost.shiftsPerOperation ? `${total} (${n(cost.totalUs / cost.shiftsPerOperation, 1)} /shift)` : total;
}

/** Columns padded to their widest cell: the first left-aligned, the others right-aligned. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((row) => (row[c] ?? '').length)));
  const line = (row: readonly string[]) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: (column: number) => boolean,
): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [
    `| ${header.map(escape).join(' | ')} |`,
    `|${header.map((_, c) => (rightAligned(c) ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}
