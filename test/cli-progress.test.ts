import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressOnStderr } from '../src/cli/progress.ts';
import { systemClock } from '../src/shared/clock.ts';
import { rebuildTotals } from '../src/features/activity/totals/service.ts';
import { eraseGameUser } from '../src/features/erasure/service.ts';
import { applyProvisioningFile } from '../src/provisioning/apply.ts';
import { ROOT, runCli } from './helpers/cli.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from './helpers/stores.ts';

const EXAMPLE = join(ROOT, 'examples/provision.example.json');
const PROGRESS_LINE = /^(provision|rebuild-totals|erase): .+ \(\d+\.\d s\)$/;

describe('progress on stderr', () => {
  function printer(afterMs = 1000) {
    let t = 0;
    const lines: string[] = [];
    const progress = progressOnStderr('provision', {
      now: () => t,
      write: (text) => lines.push(text),
      afterMs,
      timer: false,
    });
    return { progress, lines, at: (ms: number) => (t = ms) };
  }

  it('says nothing during the first second, nor at the end of a run that was quick', () => {
    const { progress, lines, at } = printer();
    progress.report('checking the document');
    at(400);
    progress.report('workspace 1/1, 1/9 tables, 3 rows');
    at(999);
    progress.report('workspace 1/1, 9/9 tables, 40 rows');
    progress.stop();
    expect(lines).toEqual([]);
  });

  it('after a second, prints the current step at most once a second, then the total time', () => {
    const { progress, lines, at } = printer();
    progress.report('checking the document');
    at(1000);
    progress.report('workspace 1/1, 3/9 tables, 12000 rows');
    at(1500);
    progress.report('workspace 1/1, 8/9 tables, 20000 rows');
    at(2100);
    progress.report('workspace 1/1, 9/9 tables, 30000 rows');
    at(2300);
    progress.stop();
    expect(lines).toEqual([
      'provision: workspace 1/1, 3/9 tables, 12000 rows (1.0 s)\n',
      'provision: workspace 1/1, 9/9 tables, 30000 rows (2.1 s)\n',
      'provision: done in 2.3 s\n',
    ]);
  });
});

/** A copy of the example document whose first workspace imports `n` completed shifts of one staff member. */
function documentWithShifts(n: number): unknown {
  const document = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {
    workspaces: Array<{ staff: Array<{ id: string }>; shifts: Array<Record<string, unknown>> }>;
  };
  const workspace = document.workspaces[0]!;
  const template = workspace.shifts[0]!;
  const start = Date.parse('2024-01-01T00:00:00Z');
  workspace.shifts = Array.from({ length: n }, (_, i) => ({
    ...template,
    id: randomUUID(),
    staffId: workspace.staff[0]!.id,
    startedAt: new Date(start + i * 7_200_000).toISOString(),
    endedAt: new Date(start + i * 7_200_000 + 3_600_000).toISOString(),
  }));
  return document;
}

describe.each(STORE_KINDS)('progress of the long commands (%s)', (kind) => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wsg-progress-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('quick runs of provision, rebuild-totals and erase print no progress', async () => {
    const database = await createTestDatabase(kind);
    try {
      const env = { DATABASE_URL: database.url };
      for (const args of [['provision', EXAMPLE], ['rebuild-totals'], ['erase', '--game-user-id', '1001']]) {
        const res = await runCli(args, env);
        expect(res.code, res.stderr).toBe(0);
        expect(res.stderr, args[0]).toBe('');
        JSON.parse(res.stdout);
      }
    } finally {
      await database.drop();
    }
  });

  it('provisioning, rebuilding the totals and an erasure report their steps', async () => {
    const database = await createTestDatabase(kind);
    const store = database.open();
    try {
      const steps: string[] = [];
      const report = (step: string) => steps.push(step);
      await applyProvisioningFile(store.db, EXAMPLE, systemClock, report);
      expect(steps.at(0)).toMatch(/^reading .*provision\.example\.json$/);
      expect(steps.filter((step) => /^workspace 1\/1, \d\/9 tables, \d+ rows$/.test(step)).length).toBeGreaterThanOrEqual(9);
      steps.length = 0;
      await rebuildTotals({ db: store.db, write: (job) => store.write(job) }, undefined, report);
      expect(steps.at(0)).toBe('0/1 workspaces, 0 shifts');
      expect(steps.at(-1)).toMatch(/^1\/1 workspaces, \d+ shifts$/);
      steps.length = 0;
      await eraseGameUser(store, systemClock, '1001', report);
      expect(steps).toContain('staff profiles and notices (1)');
      expect(steps.at(-1)).toBe('stored responses');
    } finally {
      await store.close();
      await database.drop();
    }
  });

  it('a provisioning run of over a second reports its steps on stderr; stdout holds only the JSON result', async () => {
    const file = join(dir, 'history.json');
    // The workspace's writes must outlast the one-second interval between lines, or no line of theirs is printed:
    // with 40,000 shifts they took under a second on a fast run.
    writeFileSync(file, JSON.stringify(documentWithShifts(100_000)));
    const database: TestDatabase = await createTestDatabase(kind);
    try {
      const started = Date.now();
      const res = await runCli(['provision', file], { DATABASE_URL: database.url }, 120_000);
      expect(res.code, res.stderr).toBe(0);
      // The input is sized for several seconds; the assertion below needs more than one.
      expect(Date.now() - started).toBeGreaterThan(1500);
      const lines = res.stderr.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines.slice(0, -1)) expect(line).toMatch(PROGRESS_LINE);
      expect(lines.at(-1)).toMatch(/^provision: done in \d+\.\d s$/);
      expect(res.stderr).toMatch(/provision: workspace 1\/1, \d\/9 tables, [\d,]+ rows/);
      const result = JSON.parse(res.stdout) as { keys: unknown[]; webhooks: unknown[] };
      expect(result.keys.length).toBeGreaterThan(0);
    } finally {
      await database.drop();
    }
  }, 180_000);
});
