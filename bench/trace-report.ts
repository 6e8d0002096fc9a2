/** What `npm run bench:trace` prints and records (trace.ts): a table per store, and the file lists of some kinds. */
import { REFERENCE_KIND } from './trace-requests.ts';
import type { StoreTrace } from './trace-run.ts';
import { textTable } from './tables.ts';

/** Bump when the record's shape changes. */
export const TRACE_RECORD_VERSION = 2;

export interface TraceRecord {
  readonly recordVersion: number;
  readonly kind: 'request-files';
  readonly command: string;
  /** The checkout's commit, when git can tell. */
  readonly commit: string | null;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly repeats: number;
  readonly warmup: number;
  readonly waitMs: number;
  readonly stores: readonly StoreTrace[];
}

const range = (counts: readonly number[]) => {
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  return low === high ? String(low) : `${low}-${high}`;
};

/**
 * A row per kind: its files, and on PostgreSQL the statements and transactions the gateway sent in the window
 * holding the request (lowest-highest over the repeats; the lowest is the request's own, a higher one work that
 * fell into the window, such as the timeout sweep).
 */
export function traceTable(trace: StoreTrace): string {
  const postgres = trace.store === 'postgres';
  const rows = trace.kinds.map((kind) => [
    kind.kind,
    range(kind.repeats.map((files) => files.length)),
    String(kind.every.length),
    String(kind.any.length),
    kind.kind === REFERENCE_KIND ? '-' : String(kind.beyondReference.length),
    ...(postgres ? [range(kind.statements.map((s) => s.statements)), range(kind.statements.map((s) => s.transactions))] : []),
  ]);
  const head = ['kind', 'files (each repeat)', 'in every', 'in any', 'beyond /health', ...(postgres ? ['statements', 'transactions'] : [])];
  const lines = textTable(head, rows).split('\n');
  // The request last, left-aligned: textTable right-aligns every column but the first.
  const titles = ['request', '-------', ...trace.kinds.map((kind) => kind.title)];
  const width = Math.max(...lines.map((line) => line.length));
  return lines.map((line, i) => `${line.padEnd(width)}  ${titles[i] ?? ''}`.trimEnd()).join('\n');
}

/** The PostgreSQL statements of one kind's first repeat, in order. */
export function statementList(trace: StoreTrace, kindName: string): string {
  const kind = trace.kinds.find((k) => k.kind === kindName);
  const first = kind?.statements[0];
  if (!kind || !first) return `${kindName}: not measured`;
  return [
    `${trace.store} ${kind.kind} (${kind.title}): ${first.statements} statements in ${first.transactions} transaction(s) (first repeat)`,
    ...first.texts.map((text, i) => `  ${String(i + 1).padStart(3)} ${text}`),
  ].join('\n');
}

/**
 * The files of one kind: those in every repeat, `+` marking the ones `GET /health` never ran, then those only some
 * repeats ran (background work that fell into a window, most often).
 */
export function fileList(trace: StoreTrace, kindName: string): string {
  const kind = trace.kinds.find((k) => k.kind === kindName);
  if (!kind) return `${kindName}: not measured`;
  const beyond = new Set(kind.beyondReference);
  const some = kind.any.filter((file) => !kind.every.includes(file));
  return [
    `${trace.store} ${kind.kind} (${kind.title}): ${kind.every.length} files in every repeat, ${kind.beyondReference.length} of them (+) never run by GET /health`,
    ...kind.every.map((file) => `  ${beyond.has(file) ? '+' : ' '} ${file}`),
    ...(some.length > 0 ? [`  in some repeats only:`, ...some.map((file) => `    ${file}`)] : []),
  ].join('\n');
}
