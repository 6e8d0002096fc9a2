import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/connect.ts';

/**
 * A SQLite file is written by the serving process and, at times, by another one (the CLI's `keys` and
 * `provision`): a write of one must wait for the other's, never fail. A transaction that reads before
 * it writes, begun as a plain (deferred) `BEGIN`, fails at once with "database is locked" when another
 * connection committed after its read (its snapshot is stale: SQLite does not wait then).
 */
describe('SQLite store with another process writing the same file', () => {
  let dir: string;
  let store: Store;
  let other: Database.Database;
  let filename: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsg-writers-'));
    filename = join(dir, 'gateway.db');
    store = openStore(`sqlite:${filename}`);
    await sql`create table counter (id integer primary key, value integer not null)`.execute(store.db);
    await sql`insert into counter (id, value) values (1, 0)`.execute(store.db);
    other = new Database(filename);
    // Same thread as the store: waiting for it would only block both, so it gives up at once.
    other.pragma('busy_timeout = 50');
  });

  afterEach(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write job that reads first waits for a commit made by another connection after its read', async () => {
    const result = await store.write(async (trx) => {
      const before = await sql<{ value: number }>`select value from counter where id = 1`.execute(trx);
      // Another connection commits now, between this job's read and its write.
      let otherFailed: unknown = null;
      try {
        other.prepare('update counter set value = value + 100 where id = 1').run();
      } catch (error) {
        otherFailed = error;
      }
      await sql`update counter set value = value + 1 where id = 1`.execute(trx);
      return { read: before.rows[0]?.value, otherFailed };
    });
    // The job held the write lock from its start: the other connection could not commit inside it (it timed out
    // or waited), so the job's read stays true for its write.
    expect(result.read).toBe(0);
    const after = other.prepare('select value from counter where id = 1').get() as { value: number };
    expect(after.value).toBe(result.otherFailed === null ? 101 : 1);
  }, 20_000);

  it('a write job started while another process holds the write lock waits for its commit, then writes', async () => {
    // Another process takes the write lock, says so, and commits 300 ms later.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const db = new D(process.argv[1]);
         db.exec('begin immediate'); db.prepare('update counter set value = value + 100 where id = 1').run();
         process.stdout.write('locked\\n');
         setTimeout(() => { db.exec('commit'); db.close(); }, 300);`,
        filename,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<number | null>((resolve) => holder.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.once('data', () => resolve());
      holder.once('exit', () => reject(new Error('the lock holder exited before taking the lock')));
    });
    await store.write(async (trx) => {
      const row = await sql<{ value: number }>`select value from counter where id = 1`.execute(trx);
      await sql`update counter set value = ${(row.rows[0]?.value ?? 0) + 1} where id = 1`.execute(trx);
    });
    expect(await exited).toBe(0);
    const after = other.prepare('select value from counter where id = 1').get() as { value: number };
    // The job read after the other commit: no lost update.
    expect(after.value).toBe(101);
  }, 20_000);
});
