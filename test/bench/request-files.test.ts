import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../bench/options.ts';
import { beyond, difference, filesRun, intersection, kindFiles, union, type ScriptCoverage } from '../../bench/request-files.ts';
import { NO_STATEMENTS, queryText, StatementCounter, transactionEffect } from '../../bench/statement-count.ts';
import { parseTraceOptions } from '../../bench/trace-options.ts';
import { fileList, traceTable } from '../../bench/trace-report.ts';
import { KIND_NAMES } from '../../bench/trace-requests.ts';
import type { StoreTrace } from '../../bench/trace-run.ts';

/** A script whose functions ran these many times (the first range of each is the function itself). */
const script = (url: string, ...counts: number[]): ScriptCoverage => ({
  url,
  functions: counts.map((count) => ({ ranges: [{ count }, { count: 0 }] })),
});

describe('benchmark trace: the files a coverage result ran', () => {
  it('lists the files under src/ with at least one function run, relative to the repository and sorted', () => {
    const files = filesRun(
      [
        script('file:///repo/src/z.ts', 0, 2),
        script('file:///repo/src/features/a.ts', 1),
        script('file:///repo/src/idle.ts', 0, 0),
        script('file:///repo/bench/coverage-probe.ts', 5),
        script('file:///repo/node_modules/fastify/fastify.js', 9),
        script('file:///repo/srcs/other.ts', 1),
        script('node:internal/modules/esm/loader', 3),
        script('file:///repo/src/with%20space.ts', 1),
      ],
      '/repo',
    );
    expect(files).toEqual(['src/features/a.ts', 'src/with space.ts', 'src/z.ts']);
  });

  it('takes the repository root with or without a trailing slash, and another folder when asked', () => {
    const scripts = [script('file:///repo/src/a.ts', 1), script('file:///repo/bench/b.ts', 1)];
    expect(filesRun(scripts, '/repo/')).toEqual(['src/a.ts']);
    expect(filesRun(scripts, '/repo', 'bench')).toEqual(['bench/b.ts']);
  });

  it('counts a function by its own range, not by a block inside it', () => {
    const onlyBlock: ScriptCoverage = { url: 'file:///repo/src/a.ts', functions: [{ ranges: [{ count: 0 }, { count: 3 }] }] };
    expect(filesRun([onlyBlock], '/repo')).toEqual([]);
  });
});

describe('benchmark trace: set arithmetic', () => {
  it('difference, union and intersection are sorted and without repeats', () => {
    expect(difference(['c', 'a', 'b', 'a'], ['b'])).toEqual(['a', 'c']);
    expect(union([['b', 'a'], ['c', 'a']])).toEqual(['a', 'b', 'c']);
    expect(intersection([['b', 'a', 'c'], ['c', 'a'], ['a', 'c', 'd']])).toEqual(['a', 'c']);
    expect(intersection([])).toEqual([]);
  });

  it("takes each repeat's idle files off its request files, and sets the repeats side by side", () => {
    const files = kindFiles('heartbeat', [
      { idle: ['timer'], request: ['app', 'routes', 'timer'] },
      { idle: [], request: ['app', 'routes', 'sweep'] },
      { idle: ['sweep'], request: ['app', 'routes', 'sweep'] },
    ]);
    expect(files.repeats).toEqual([['app', 'routes'], ['app', 'routes', 'sweep'], ['app', 'routes']]);
    expect(files.every).toEqual(['app', 'routes']);
    expect(files.any).toEqual(['app', 'routes', 'sweep']);
    expect(files.idle).toEqual(['sweep', 'timer']);
  });

  it('counts beyond the reference only what every repeat ran and no repeat of the reference did', () => {
    const health = kindFiles('health', [
      { idle: [], request: ['app'] },
      { idle: [], request: ['app', 'metrics'] },
    ]);
    const heartbeat = kindFiles('heartbeat', [
      { idle: [], request: ['app', 'metrics', 'routes', 'noise'] },
      { idle: [], request: ['app', 'metrics', 'routes'] },
    ]);
    expect(beyond(heartbeat, health)).toEqual(['routes']);
  });
});

describe('benchmark trace: report', () => {
  const trace: StoreTrace = {
    store: 'sqlite',
    engineVersion: 'SQLite 3',
    kinds: [
      {
        ...kindFiles('health', [{ idle: [], request: ['src/app.ts'] }, { idle: [], request: ['src/app.ts', 'src/x.ts'] }]),
        title: 'GET /health',
        beyondReference: [],
        statements: [NO_STATEMENTS, NO_STATEMENTS],
      },
      {
        ...kindFiles('heartbeat', [
          { idle: [], request: ['src/app.ts', 'src/routes.ts'] },
          { idle: [], request: ['src/app.ts', 'src/routes.ts', 'src/y.ts'] },
        ]),
        title: 'POST /heartbeat',
        beyondReference: ['src/routes.ts'],
        statements: [
          { statements: 1, transactions: 1, texts: ['select 1'] },
          { statements: 4, transactions: 2, texts: ['begin', 'select 1', 'commit', 'select 2'] },
        ],
      },
    ],
  };

  it('gives the range over the repeats, what they agree on, and the count beyond /health', () => {
    const lines = traceTable(trace).split('\n');
    expect(lines[0]).toMatch(/^kind\s+files \(each repeat\)\s+in every\s+in any\s+beyond \/health\s+request$/);
    expect(lines[2]).toMatch(/^health\s+1-2\s+1\s+2\s+-\s+GET \/health$/);
    expect(lines[3]).toMatch(/^heartbeat\s+2-3\s+2\s+3\s+1\s+POST \/heartbeat$/);
  });

  it('adds the statements and transactions on PostgreSQL', () => {
    const lines = traceTable({ ...trace, store: 'postgres' }).split('\n');
    expect(lines[0]).toMatch(/beyond \/health\s+statements\s+transactions\s+request$/);
    expect(lines[2]).toMatch(/^health\s+1-2\s+1\s+2\s+-\s+0\s+0\s+GET \/health$/);
    expect(lines[3]).toMatch(/^heartbeat\s+2-3\s+2\s+3\s+1\s+1-4\s+1-2\s+POST \/heartbeat$/);
  });

  it('lists the files, marking those /health never ran, then those of some repeats only', () => {
    expect(fileList(trace, 'heartbeat').split('\n')).toEqual([
      'sqlite heartbeat (POST /heartbeat): 2 files in every repeat, 1 of them (+) never run by GET /health',
      '    src/app.ts',
      '  + src/routes.ts',
      '  in some repeats only:',
      '    src/y.ts',
    ]);
  });
});

describe('benchmark trace: options', () => {
  it('measures every kind three times on both stores by default', () => {
    const options = parseTraceOptions([], {});
    expect(options.stores).toEqual(['sqlite', 'postgres']);
    expect(options.storesDefaulted).toBe(true);
    expect(options.kinds).toEqual([...KIND_NAMES]);
    expect([options.repeats, options.warmup, options.waitMs]).toEqual([3, 300, 300]);
  });

  it('takes stores, kinds and counts, and refuses what it does not know', () => {
    const options = parseTraceOptions(['--store', 'postgres', '--kinds', 'heartbeat, intake', '--repeats=5', '--wait', '500', '--verbose'], {});
    expect(options.stores).toEqual(['postgres']);
    expect(options.kinds).toEqual(['heartbeat', 'intake']);
    expect([options.repeats, options.waitMs, options.verbose]).toEqual([5, 500, true]);
    expect(() => parseTraceOptions(['--kinds', 'heartbeat,teleport'], {})).toThrow(OptionsError);
    expect(() => parseTraceOptions(['--repeats', '0'], {})).toThrow(OptionsError);
    expect(() => parseTraceOptions(['--store', 'mysql'], {})).toThrow(OptionsError);
    expect(() => parseTraceOptions(['--quick'], {})).toThrow(OptionsError);
  });
});

describe('benchmark trace: statements and transactions', () => {
  it('counts a statement outside a transaction as one, and begin to commit as one', () => {
    const counter = new StatementCounter();
    const a = {};
    const b = {};
    counter.count(a, 'with heartbeat as (update shifts set x = 1) insert into idempotency_records select 1');
    counter.count(a, 'begin');
    counter.count(b, 'select 1');
    counter.count(a, 'savepoint s1');
    counter.count(a, 'rollback to savepoint s1');
    counter.count(a, 'update shifts set x = 2');
    counter.count(a, 'commit');
    counter.count(a, '  BEGIN');
    counter.count(a, 'rollback');
    counter.count(a, 'select 2');
    const taken = counter.take();
    expect(taken).toMatchObject({ statements: 10, transactions: 5 });
    expect(taken.texts[0]).toBe('with heartbeat as (update shifts set x = 1) insert into idempotency_records select 1');
    expect(taken.texts[7]).toBe('BEGIN');
    expect(counter.take()).toEqual(NO_STATEMENTS);
  });

  it("reads a query's text from a string or a query config", () => {
    expect(queryText('select 1')).toBe('select 1');
    expect(queryText({ name: 's1', text: 'select 2', values: [] })).toBe('select 2');
    expect(queryText(undefined)).toBe('');
    expect(transactionEffect('start transaction')).toBe('begin');
    expect(transactionEffect('end')).toBe('end');
    expect(transactionEffect('release savepoint s1')).toBe('none');
  });
});
