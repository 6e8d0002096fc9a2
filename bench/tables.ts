/** Tables for the console (aligned columns) and for Markdown. */

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
