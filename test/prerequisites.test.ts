import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';
import { WITHOUT_POSTGRES } from './helpers/prerequisites.ts';

/**
 * What `npm test` does without one of its prerequisites (test/helpers/prerequisites.ts), seen from outside: Vitest
 * run as a developer runs it, on one small file of both stores, with TEST_DATABASE_URL at a port where nothing
 * listens. Outside CI the file's PostgreSQL tests are reported skipped, with one line saying why and how to start
 * a server; under CI=true the run fails.
 */

interface Run {
  readonly code: number | null;
  readonly output: string;
}

const FILE = 'test/db/after-commit.test.ts';
const scratch = mkdtempSync(join(tmpdir(), 'wsg-prerequisites-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** `vitest run FILE` in a process of its own (none of this run's Vitest variables), its JSON report in `report`. */
function vitest(env: Record<string, string>, report: string): Promise<Run> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'CI'));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', FILE, '--maxWorkers=1', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      { cwd: ROOT, env: { ...inherited, FORCE_COLOR: '0', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

interface JsonReport {
  readonly numFailedTests: number;
  readonly numPassedTests: number;
  readonly testResults: ReadonlyArray<{ readonly assertionResults: ReadonlyArray<{ readonly fullName: string; readonly status: string }> }>;
}

describe('npm test without PostgreSQL', () => {
  it('outside CI: one line says PostgreSQL is not answering and how to start it, and its tests are reported skipped, never passed', async () => {
    const port = await closedPort();
    const report = join(scratch, 'outside-ci.json');
    const run = await vitest({ TEST_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test` }, report);
    expect(run.code, run.output).toBe(0);
    const lines = run.output.split('\n').filter((line) => line.includes('PostgreSQL is not answering'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`PostgreSQL is not answering at 127.0.0.1:${port}: its tests are skipped`);
    expect(lines[0]).toContain('start it with `docker run');

    const results = (JSON.parse(readFileSync(report, 'utf8')) as JsonReport).testResults.flatMap((file) => file.assertionResults);
    const postgres = results.filter((r) => r.fullName.includes('(postgres)'));
    const sqlite = results.filter((r) => r.fullName.includes('(sqlite)'));
    expect(postgres.length).toBeGreaterThan(0);
    expect(postgres.map((r) => r.status)).toEqual(postgres.map(() => 'skipped'));
    expect(sqlite.length).toBe(postgres.length);
    expect(sqlite.map((r) => r.status)).toEqual(sqlite.map(() => 'passed'));
  }, 120_000);

  it('under CI=true: the run fails, naming PostgreSQL, before any test runs', async () => {
    const port = await closedPort();
    const report = join(scratch, 'ci.json');
    const run = await vitest({ TEST_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`, CI: 'true' }, report);
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain(`PostgreSQL is not answering at 127.0.0.1:${port}: CI runs its tests`);
    expect(run.output).not.toContain('are skipped');
    expect(run.output).not.toMatch(/\d+ passed/);
  }, 120_000);
});

describe('the name pattern that skips PostgreSQL runs', () => {
  it('skips a suite titled (postgres) or (postgres, …) and keeps every other name', () => {
    expect(WITHOUT_POSTGRES.test('migrations (sqlite) take a store to the latest')).toBe(true);
    expect(WITHOUT_POSTGRES.test('DATABASE_POOL_SIZE on PostgreSQL opens at most that many')).toBe(true);
    expect(WITHOUT_POSTGRES.test('migrations (postgres) take a store to the latest')).toBe(false);
    expect(WITHOUT_POSTGRES.test('stopping a dispatcher (postgres, sending in-process) waits')).toBe(false);
  });

  it('reaches every suite run on each store: each describe.each(STORE_KINDS) title names its store as (%s', () => {
    const files = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
    const titles: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, 'test', file), 'utf8');
      for (const m of text.matchAll(/(?:\.each\(STORE_KINDS|describe\.each\(CASES)[^\n]*?\)\(\s*(['"`])((?:\\.|[^\\])*?)\1/g)) titles.push(`${file}: ${m[2] ?? ''}`);
    }
    expect(titles.length).toBeGreaterThan(100);
    expect(titles.filter((title) => !title.includes('(%s'))).toEqual([]);
  });
});
