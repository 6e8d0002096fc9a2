import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/shared/clock.ts';
import { openStore } from '../src/db/connect.ts';
import { pendingMigrations } from '../src/db/migrate.ts';
import { SqliteDatabase } from '../src/db/sqlite-driver.ts';
import { newId, randomBase62 } from '../src/shared/ids.ts';
import { runCli, startCli, type ServingProcess } from './helpers/cli.ts';
import { bearer, buildFixture, seed, UNIVERSE_ID } from './helpers/fixtures.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from './helpers/stores.ts';

/** Enough rows that the copy takes many backup steps (writes land between them). */
const EXTRA_STAFF = 3_000;

describe('backup (sqlite)', { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let server: ServingProcess;
  let dir: string;
  const fixture = buildFixture();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsg-backup-'));
    for (let i = 0; i < EXTRA_STAFF; i += 1) {
      fixture.workspace.staff?.push({
        id: newId(),
        displayName: `Filler ${i} ${'x'.repeat(100)}`,
        gameUserId: String(100_000 + i),
        gameUsername: `filler${i}`,
        chatUserId: null,
        departmentId: null,
        rank: null,
        status: 'active',
      });
    }
    database = await createTestDatabase('sqlite');
    const store = database.open();
    try {
      await seed({ store, clock: systemClock }, fixture);
    } finally {
      await store.close();
    }
    server = await startCli(['serve', '--port', '0', '--database-url', database.url]);
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts and stops shifts of one staff member in a loop: every write is one transaction with its record. */
  function writeLoop() {
    let stopped = false;
    let acknowledged = 0;
    const headers = () => ({
      ...bearer(fixture.keys.test.secret),
      'content-type': 'application/json',
      'idempotency-key': `backup-${randomBase62(16)}`,
    });
    const done = (async () => {
      while (!stopped) {
        const start = await server.request('/v1/activity/shifts/start', {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify({
            gameUserId: fixture.staff.alice.gameUserId,
            universeId: UNIVERSE_ID,
            placeId: '1',
            serverId: 'srv-backup',
          }),
        });
        if (start.statusCode !== 200) throw new Error(`start: ${start.statusCode} ${start.body}`);
        acknowledged += 1;
        const { data } = start.json() as { data: { shift: { id: string } } };
        const stop = await server.request(`/v1/activity/shifts/${data.shift.id}/stop`, { method: 'POST', headers: headers(), body: '{}' });
        if (stop.statusCode !== 200) throw new Error(`stop: ${stop.statusCode} ${stop.body}`);
        acknowledged += 1;
      }
    })();
    return {
      acknowledged: () => acknowledged,
      stop: async () => {
        stopped = true;
        await done;
        return acknowledged;
      },
    };
  }

  it('takes a consistent copy while the server writes; the copy opens, passes its checks and is fully migrated', async () => {
    const writes = writeLoop();
    while (writes.acknowledged() < 10) await new Promise((resolve) => setTimeout(resolve, 50));
    const target = join(dir, 'copy.db');
    const before = writes.acknowledged();
    const res = await runCli(['backup', target], { DATABASE_URL: database.url });
    const after = writes.acknowledged();
    const total = await writes.stop();
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { file: string; bytes: number; pages: number; integrity: string };
    expect(out).toMatchObject({ file: target, integrity: 'ok' });
    expect(out.bytes).toBe(statSync(target).size);
    expect(after).toBeGreaterThan(before); // the writes went on while the copy was taken
    // Only the copy is left in the folder: no temporary file, no write-ahead log beside it.
    expect(readdirSync(dir)).toEqual(['copy.db']);

    const copy = new SqliteDatabase(target, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('foreign_key_check')).toEqual([]);
      const count = (sql: string) => (copy.prepare(sql).get() as { n: number }).n;
      expect(count('select count(*) as n from staff')).toBe(EXTRA_STAFF + 3);
      const shifts = count('select count(*) as n from shifts');
      const ended = count(`select count(*) as n from shifts where status <> 'active'`);
      const records = count('select count(*) as n from idempotency_records');
      // One committed state: each start added a shift and its record, each stop ended one and added its record.
      expect(records).toBe(shifts + ended);
      expect(shifts - ended).toBeLessThanOrEqual(1);
      expect(records).toBeGreaterThanOrEqual(before);
      expect(records).toBeLessThanOrEqual(after);
      expect(records).toBeLessThan(total + 1);
    } finally {
      copy.close();
    }
    const store = openStore(`sqlite:${target}`);
    try {
      expect(await pendingMigrations(store)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('never overwrites a file, and names the problem on stderr with a non-zero exit', async () => {
    const target = join(dir, 'exists.db');
    const first = await runCli(['backup', target], { DATABASE_URL: database.url });
    expect(first.code, first.stderr).toBe(0);
    const size = statSync(target).size;
    const again = await runCli(['backup', target], { DATABASE_URL: database.url });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/exists; backup never overwrites a file/);
    expect(again.stdout).toBe('');
    expect(statSync(target).size).toBe(size);

    const nowhere = await runCli(['backup', join(dir, 'no-such-folder', 'x.db')], { DATABASE_URL: database.url });
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.stderr).toMatch(/does not exist/);
    const none = await runCli(['backup'], { DATABASE_URL: database.url });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/backup needs exactly one target file/);
  });
});

describe.runIf(postgresAvailable)('backup (postgres)', () => {
  it('says to use pg_dump, exits non-zero and writes nothing', async () => {
    const database = await createTestDatabase('postgres');
    const dir = mkdtempSync(join(tmpdir(), 'wsg-backup-pg-'));
    try {
      const target = join(dir, 'copy.db');
      const res = await runCli(['backup', target], { DATABASE_URL: database.url });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/pg_dump/);
      expect(res.stdout).toBe('');
      expect(existsSync(target)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
