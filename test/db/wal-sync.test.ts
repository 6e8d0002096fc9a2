import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '../../src/db/sqlite-driver.ts';
import { cachingSqliteDatabase, DurableCommitSqliteDialect, WalSync } from '../../src/db/sqlite-dialect.ts';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** The real flush, counted, and observable while it runs. */
class CountingWalSync extends WalSync {
  flushes = 0;
  inFlight = 0;
  override async flushNow(): Promise<void> {
    this.inFlight += 1;
    try {
      await super.flushNow();
      this.flushes += 1;
    } finally {
      this.inFlight -= 1;
    }
  }
}

interface Tables {
  items: { id: number; name: string };
}

describe('durable commits on SQLite (write-ahead log flushed off the event loop)', () => {
  let dir: string;
  let wal: CountingWalSync;
  let db: Kysely<Tables>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsg-wal-'));
    const filename = join(dir, 'store.db');
    const handle = new SqliteDatabase(filename);
    handle.pragma('journal_mode = WAL');
    handle.pragma('synchronous = NORMAL');
    const database = cachingSqliteDatabase(handle);
    wal = new CountingWalSync(`${filename}-wal`);
    db = new Kysely<Tables>({ dialect: new DurableCommitSqliteDialect(database, wal) });
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    wal.flushes = 0;
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a committed write is flushed before its caller goes on; reads and rolled-back work are not', async () => {
    await db.insertInto('items').values({ id: 1, name: 'a' }).execute();
    expect(wal.flushes).toBe(1);
    await db.selectFrom('items').selectAll().execute();
    expect(wal.flushes).toBe(1);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 2, name: 'b' }).execute();
      await trx.updateTable('items').set({ name: 'c' }).where('id', '=', 2).execute();
      expect(wal.flushes).toBe(1); // nothing is flushed before the commit
    });
    expect(wal.flushes).toBe(2);
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('items').selectAll().execute();
    });
    expect(wal.flushes).toBe(2);
  });

  it('a failing write flushes nothing it did not commit', async () => {
    await db.insertInto('items').values({ id: 1, name: 'a' }).execute();
    const before = wal.flushes;
    await expect(db.insertInto('items').values({ id: 1, name: 'again' }).execute()).rejects.toThrow();
    expect(wal.flushes).toBe(before);
  });

  it('concurrent commits share flushes: one runs at a time, and each caller waits for one that began after it', async () => {
    let maxInFlight = 0;
    const probe = setInterval(() => {
      maxInFlight = Math.max(maxInFlight, wal.inFlight);
    }, 0);
    const writes = Array.from({ length: 50 }, (_, i) =>
      db.insertInto('items').values({ id: 100 + i, name: `n${i}` }).execute().then(() => wal.flushes),
    );
    const flushesSeen = await Promise.all(writes);
    clearInterval(probe);
    expect(maxInFlight).toBeLessThanOrEqual(1);
    expect(wal.flushes).toBeGreaterThan(0);
    expect(wal.flushes).toBeLessThanOrEqual(50);
    // Every caller resumed only after at least one flush had completed since it began.
    expect(Math.min(...flushesSeen)).toBeGreaterThan(0);
    expect(await db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual({ n: 50 });
  });

  it('a caller that commits while a flush runs waits for the next flush, not the running one', async () => {
    const first = wal.sync();
    const second = wal.sync();
    const third = wal.sync();
    expect(second).toBe(third);
    await first;
    expect(wal.flushes).toBe(1);
    await second;
    expect(wal.flushes).toBe(2);
  });
});
