/**
 * `npm run bench:trace`: how many files of src/ one request runs code in, on each store, measured with V8's
 * precise coverage inside a warmed-up gateway with the files idle background work runs taken off (trace-run.ts).
 * Prints a table per store and the file lists, and writes bench/results/request-files-<timestamp>.json so two
 * builds can be compared. See docs/BENCHMARKS.md, "Files a request runs".
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { missingPostgres } from './database.ts';
import { OptionsError } from './options.ts';
import { REPO_ROOT, RESULTS_DIR } from './paths.ts';
import { parseTraceOptions, TRACE_USAGE, type TraceCliOptions } from './trace-options.ts';
import { fileList, statementList, traceTable, TRACE_RECORD_VERSION, type TraceRecord } from './trace-report.ts';
import { traceStore, type StoreTrace } from './trace-run.ts';

/** The kinds whose files are listed without --verbose. */
const LISTED_KINDS = ['heartbeat', 'intake'];

const started = performance.now();
function log(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[trace ${seconds}s] ${message}\n`);
}

// An interrupt ends the run between two requests: the server is stopped and the database dropped (trace-run.ts).
const interrupt = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the server and dropping the run's database`);
    interrupt.abort(new Error(`interrupted by ${signal}`));
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function commitOf(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

function print(trace: StoreTrace, options: TraceCliOptions): void {
  const label = `${trace.store} (${trace.engineVersion})`;
  process.stdout.write(
    `\n${label}: files of src/ one request runs, ${options.repeats} repeat(s), the files of the idle window before each taken off` +
      `${trace.store === 'postgres' ? '; the statements and transactions of the window holding the request' : ''}\n` +
      `${traceTable(trace)}\n\n`,
  );
  const listed = options.verbose ? trace.kinds.map((kind) => kind.kind) : LISTED_KINDS;
  for (const kind of listed) {
    if (trace.kinds.some((k) => k.kind === kind)) process.stdout.write(`${fileList(trace, kind)}\n\n`);
  }
  if (trace.store === 'postgres' && options.statements) {
    for (const kind of trace.kinds) process.stdout.write(`${statementList(trace, kind.kind)}\n\n`);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let options: TraceCliOptions;
  try {
    options = parseTraceOptions(argv, process.env);
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    process.stderr.write(`bench:trace: ${error.message}\n\n${TRACE_USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(TRACE_USAGE);
    return 0;
  }
  const startedAt = new Date();
  const traces: StoreTrace[] = [];
  let ok = true;
  for (const store of options.stores) {
    if (store === 'postgres') {
      const missing = await missingPostgres(options, log);
      if (missing === 'fail') ok = false;
      if (missing !== null) continue;
    }
    if (interrupt.signal.aborted) break;
    log(`== ${store}`);
    try {
      const trace = await traceStore(store, { ...options, signal: interrupt.signal }, log);
      traces.push(trace);
      print(trace, options);
    } catch (error) {
      log(`${store}: ${errorMessage(error)}`);
      ok = false;
    }
  }
  if (traces.length > 0) {
    const record: TraceRecord = {
      recordVersion: TRACE_RECORD_VERSION,
      kind: 'request-files',
      command: `npm run bench:trace${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`,
      commit: commitOf(),
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      repeats: options.repeats,
      warmup: options.warmup,
      waitMs: options.waitMs,
      stores: traces,
    };
    mkdirSync(RESULTS_DIR, { recursive: true });
    const path = join(RESULTS_DIR, `request-files-${startedAt.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}.json`);
    writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
    log(`wrote ${relative(REPO_ROOT, path)}`);
  }
  if (interrupt.signal.aborted) return 130;
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
