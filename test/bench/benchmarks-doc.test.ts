import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { benchmarksDocument } from '../../bench/benchmarks-doc.ts';
import { compareTable } from '../../bench/compare.ts';
import { OptionsError, parseOptions } from '../../bench/options.ts';
import { OPEN_LEVELS } from '../../bench/open/scenario.ts';
import { BENCHMARKS_DOC, REPO_ROOT, RESULTS_DIR } from '../../bench/paths.ts';
import { NO_RUN_YET, resultsSummary } from '../../bench/results-summary.ts';
import { TARGET_ROWS } from '../../bench/targets.ts';
import { cost, runRecord, scenario } from './fixtures.ts';

const dirs: string[] = [];
function resultsDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'wsg-bench-doc-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(content));
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('benchmark: docs/BENCHMARKS.md', () => {
  it('leaves the placeholder where no full run in these units is recorded (older records do not count)', () => {
    const dir = resultsDir({ 'sqlite-2026-11-26T15-55-03Z.json': { recordVersion: 1, mode: 'full', exploratory: false } });
    const doc = benchmarksDocument(dir, 'bench/results');
    expect(doc.split(NO_RUN_YET)).toHaveLength(4);
    for (const row of TARGET_ROWS) expect(doc).toContain(row.text);
    for (const level of OPEN_LEVELS) expect(doc).toContain(`| ${level.name} | ${level.rates.heartbeats.toLocaleString('en-US')} |`);
    expect(doc).toContain('## Why the closed-loop ratio targets were retired');
    expect(doc).toContain('## Files a request runs');
  });

  it("writes the results table from the newest full run of each store, and the placeholder for a store without one", () => {
    const dir = resultsDir({
      'sqlite-2026-12-01T10-00-00Z.json': runRecord('sqlite'),
      'sqlite-2026-12-02T10-00-00Z.json': runRecord('sqlite', { exploratory: true, command: 'npm run bench -- --only open' }),
      'postgres-2026-12-01T10-00-00Z.json': runRecord('postgres', { mode: 'quick' }),
    });
    const doc = benchmarksDocument(dir, 'bench/results');
    expect(doc).toContain('| heartbeat: CPU per request, saturated | 200 µs (5.0 x) | (no full run recorded yet in these units) |');
    expect(doc).toContain('| `GET /health`: CPU per request at 700/s (x saturated) | 125 µs (3.1 x) |');
    expect(doc).toContain('| heartbeat: CPU per request at 700/s, alone | 500 µs (2.5 x saturated; 4.0 x `/health` at that rate) |');
    expect(doc).toContain('| batch heartbeat: CPU per batch (per shift) at 14/s, alone | 400 (8.0 /shift) µs |');
    expect(doc).toContain('raw results in [`bench/results/sqlite-2026-12-01T10-00-00Z.json`]');
    expect(doc).not.toContain('Run of 2026-12-02');
  });

  it('is committed as the generator writes it from the recorded runs (edit the generator, not the file)', () => {
    const written = benchmarksDocument(RESULTS_DIR, relative(REPO_ROOT, RESULTS_DIR));
    expect(readFileSync(BENCHMARKS_DOC, 'utf8')).toBe(written);
  });

  it('is only the placeholder when neither store has a run', () => {
    expect(resultsSummary({ sqlite: null, postgres: null })).toBe(NO_RUN_YET);
  });
});

describe('benchmark: --phases', () => {
  it('takes level:phase pairs of the open-loop scenario and refuses anything else', () => {
    expect(parseOptions(['--phases', 'busy:heartbeats, heavy:mix, busy:health'], {}).phases).toEqual(['busy:heartbeats', 'heavy:mix', 'busy:health']);
    expect(parseOptions([], {}).phases).toBeNull();
    expect(() => parseOptions(['--phases', 'busy'], {})).toThrow(OptionsError);
    expect(() => parseOptions(['--phases', 'idle:heartbeats'], {})).toThrow(OptionsError);
    expect(() => parseOptions(['--phases', 'busy:baseline'], {})).toThrow(OptionsError);
  });
});

describe('benchmark: --compare', () => {
  const run = (heartbeatUs: number) =>
    runRecord('sqlite', { scenarios: [scenario('heartbeat', 'throughput', { cost: cost('heartbeat', heartbeatUs) })], open: null });

  it('takes a list of builds and a number of rounds', () => {
    const options = parseOptions(['--compare', 'x/bin.js, y/bin.js', '--rounds', '3'], {});
    expect(options.compare).toEqual(['x/bin.js', 'y/bin.js']);
    expect(options.rounds).toBe(3);
    expect(parseOptions([], {}).compare).toEqual([]);
    expect(parseOptions([], {}).rounds).toBe(2);
    expect(() => parseOptions(['--compare', ','], {})).toThrow(OptionsError);
    expect(() => parseOptions(['--rounds', '0'], {})).toThrow(OptionsError);
  });

  it('sets the cost of each run of each build side by side with the ratio of the means', () => {
    const table = compareTable([
      { build: 'A', record: run(200) },
      { build: 'B', record: run(150) },
      { build: 'A', record: run(220) },
      { build: 'B', record: run(160) },
    ]);
    expect(table).toMatch(/heartbeat\s+heartbeat\s+200\.0 · 220\.0\s+150\.0 · 160\.0\s+0\.738/);
    expect(table).toMatch(/gateway peak RSS over the run\s+MB\s+240\.0 · 240\.0\s+240\.0 · 240\.0\s+1\.000/);
  });

  it('compares every further build with the first, each in its own columns', () => {
    const table = compareTable([
      { build: 'A', record: run(200) },
      { build: 'B', record: run(300) },
      { build: 'C', record: run(100) },
      { build: 'A', record: run(200) },
      { build: 'B', record: run(260) },
      { build: 'C', record: run(120) },
    ]);
    expect(table).toContain('C / A (means)');
    expect(table).toMatch(/heartbeat\s+heartbeat\s+200\.0 · 200\.0\s+300\.0 · 260\.0\s+100\.0 · 120\.0\s+1\.400\s+0\.550/);
  });
});
