import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/connect.ts';
import { ROOT, runCli, startCli } from './helpers/cli.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from './helpers/stores.ts';

/** Every migration of this build, in the order they apply: the files of src/db/migrations. */
const MIGRATIONS = readdirSync(new URL('../src/db/migrations/', import.meta.url))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();

const EXAMPLE = join(ROOT, 'examples/provision.example.json');

/** A file's non-empty lines; none when it does not exist yet. */
function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
}

async function tableCounts(url: string): Promise<Record<string, number>> {
  const store = openStore(url);
  try {
    const out: Record<string, number> = {};
    for (const table of ['workspaces', 'staff', 'applications', 'api_keys', 'submissions', 'shifts'] as const) {
      const row = await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  } finally {
    await store.close();
  }
}

describe.each(STORE_KINDS)('command line (%s)', (kind) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    dir = mkdtempSync(join(tmpdir(), 'wsg-cli-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrate applies pending migrations and exits 0; a second run applies nothing', async () => {
    const fresh = await createTestDatabase(kind, { migrate: false });
    try {
      const first = await runCli(['migrate', '--database-url', fresh.url]);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toEqual({ applied: MIGRATIONS });
      const second = await runCli(['migrate', '--database-url', fresh.url]);
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout)).toEqual({ applied: [] });
    } finally {
      await fresh.drop();
    }
  });

  it('provision applies the example, prints created keys once, and a second run creates none', async () => {
    const first = await runCli(['provision', EXAMPLE], { DATABASE_URL: database.url });
    // Nothing on stderr but, on a machine slow enough that the run takes over a second, its progress lines.
    expect(first.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('provision: '))).toEqual([]);
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout) as { keys: Array<{ id: string; secret?: string; environment: string; scopes: string[] }> };
    expect(result.keys.length).toBeGreaterThan(0);
    for (const key of result.keys) {
      expect(key.secret).toMatch(new RegExp(`^wsk_${key.environment}_[0-9A-Za-z]{32,}$`));
      // What the client's example bot calls: time off (`staff:write`) and `/review` (`console:link`).
      expect(key.scopes).toEqual(expect.arrayContaining(['staff:write', 'console:link']));
    }
    const before = await tableCounts(database.url);
    const second = await runCli(['provision', EXAMPLE], { DATABASE_URL: database.url });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ keys: [], webhooks: [] });
    expect(await tableCounts(database.url)).toEqual(before);
  });

  it('provision of an invalid document exits non-zero with a clear message and changes nothing', async () => {
    const before = await tableCounts(database.url);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ workspaces: [{ id: 'not-a-uuid', name: 'X', slug: 'x' }] }));
    const res = await runCli(['provision', bad], { DATABASE_URL: database.url });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/\$\.workspaces\[0\]\.id/);
    expect(res.stdout).toBe('');
    expect(await tableCounts(database.url)).toEqual(before);

    const garbage = join(dir, 'garbage.json');
    writeFileSync(garbage, '{ not json');
    const res2 = await runCli(['provision', garbage], { DATABASE_URL: database.url });
    expect(res2.code).not.toBe(0);
    expect(res2.stderr).toMatch(/JSON/i);
  });

  it('rebuild-totals rebuilds the activity totals from the shifts, for all workspaces or one, printing JSON', async () => {
    const exampleWorkspace = '3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a01';
    const store = openStore(database.url);
    try {
      await runCli(['provision', EXAMPLE], { DATABASE_URL: database.url });
      const totals = () =>
        store.db
          .selectFrom('activity_totals')
          .select(['environment', 'grain', 'bucket_start', 'staff_id', 'worked_ms', 'started_shifts', 'carried_shifts'])
          .where('workspace_id', '=', exampleWorkspace)
          .orderBy('grain')
          .orderBy('bucket_start')
          .orderBy('staff_id')
          .execute();
      const before = await totals();
      expect(before.length).toBeGreaterThan(0);
      await store.db.deleteFrom('activity_totals').execute();

      const all = await runCli(['rebuild-totals', '--database-url', database.url]);
      expect(all.code, all.stderr).toBe(0);
      const result = JSON.parse(all.stdout) as { workspaces: Array<{ workspaceId: string; shifts: number }> };
      expect(result.workspaces).toContainEqual({ workspaceId: exampleWorkspace, shifts: 2 });
      expect(await totals()).toEqual(before);

      await store.db.deleteFrom('activity_totals').execute();
      const one = await runCli(['rebuild-totals', '--workspace', exampleWorkspace], { DATABASE_URL: database.url });
      expect(one.code, one.stderr).toBe(0);
      expect(JSON.parse(one.stdout)).toEqual({ workspaces: [{ workspaceId: exampleWorkspace, shifts: 2 }] });
      expect(await totals()).toEqual(before);

      const unknown = await runCli(['rebuild-totals', '--workspace', '00000000-0000-4000-8000-000000000000'], {
        DATABASE_URL: database.url,
      });
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toMatch(/no workspace/);
      expect(unknown.stdout).toBe('');
      const misplaced = await runCli(['migrate', '--workspace', exampleWorkspace], { DATABASE_URL: database.url });
      expect(misplaced.code).not.toBe(0);
    } finally {
      await store.close();
    }
  });

  it('an invalid configuration value stops start-up with a message naming it', async () => {
    const res = await runCli(['serve'], { PORT: 'abc', DATABASE_URL: database.url });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/PORT/);
  });

  it('an unknown command prints usage and exits non-zero', async () => {
    const res = await runCli(['frobnicate']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/Usage/);
  });

  it('serve runs with the memory settings in the process it was started as; what the operator set wins', async () => {
    const started = (pid: number | undefined) => ({
      args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'),
      env: readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'),
    });
    const server = await startCli(['serve', '--port', '0', '--database-url', database.url]);
    try {
      const { args, env } = started(server.child.pid);
      expect(args).toEqual(expect.arrayContaining(['--max-semi-space-size=16', '--max-old-space-size=768']));
      expect(env).toContain('MALLOC_ARENA_MAX=2');
      expect((await server.request('/health')).statusCode).toBe(200);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    const tuned = await startCli(['serve', '--port', '0', '--database-url', database.url], {
      NODE_OPTIONS: '--max-semi-space-size=32',
      MALLOC_ARENA_MAX: '4',
    });
    try {
      const { args, env } = started(tuned.child.pid);
      expect(args).not.toContain('--max-semi-space-size=16');
      expect(args).toContain('--max-old-space-size=768');
      expect(env).toContain('MALLOC_ARENA_MAX=4');
    } finally {
      expect(await tuned.stop('SIGTERM')).toBe(0);
    }
  });

  it('serve answers, and SIGTERM drains and exits 0', async () => {
    const server = await startCli(['serve', '--port', '0', '--database-url', database.url]);
    try {
      const health = await server.request('/health');
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'ok', service: 'workspace-gateway' });
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
  });
});

describe('the background thread of a serving process', () => {
  it('read compiled code from the cache the command set up, instead of stripping their TypeScript again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsg-cache-'));
    // The background thread starts with a SQLite store (its checkpointer); Node reports each cache read when asked to.
    const serve = () =>
      startCli(['serve', '--port', '0', '--database-url', `sqlite:${join(dir, 'gateway.db')}`], { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    try {
      for (let run = 0; run < 2; run += 1) {
        const server = await serve();
        const deadline = Date.now() + 10_000;
        while (!/checkpointer-worker\.ts/.test(server.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        const output = server.output();
        expect(await server.stop('SIGTERM')).toBe(0);
        // The first run may have written the cache; the second reads it.
        if (run === 1) expect(output).toMatch(/retrieving transpile cache for StrippedTypeScript \S*checkpointer-worker\.ts\.\.\.success/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are sized by their own limits, not by the heap flags the command gives the main thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsg-limits-'));
    const probeFile = join(dir, 'limits.jsonl');
    const probe = pathToFileURL(join(ROOT, 'test/fixtures/heap-limit-probe.mjs')).href;
    try {
      const server = await startCli(['serve', '--port', '0', '--database-url', `sqlite:${join(dir, 'gateway.db')}`], {
        NODE_OPTIONS: `--import ${probe}`,
        HEAP_LIMIT_PROBE_FILE: probeFile,
      });
      const limits = () => readLines(probeFile).map((line) => JSON.parse(line) as { main: boolean; limitMb: number });
      const deadline = Date.now() + 10_000;
      // The process started twice (the command restarts itself with the flags), then the background thread.
      while (!limits().some((l) => !l.main) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await server.stop('SIGTERM')).toBe(0);
      const main = limits().filter((l) => l.main);
      const threads = limits().filter((l) => !l.main);
      // The main thread runs with --max-old-space-size=768; the background thread with its 64 MB cap.
      expect(main.at(-1)!.limitMb).toBeGreaterThanOrEqual(768);
      expect(threads.length).toBeGreaterThan(0);
      for (const thread of threads) expect(thread.limitMb).toBeLessThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
