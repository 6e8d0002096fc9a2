import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, sqliteFilename, type Store } from '../../src/db/connect.ts';
import { runShaped, runStatement, SQLITE_STATEMENTS } from '../../src/db/sql/index.ts';
import { newId } from '../../src/ids.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../helpers/stores.ts';

describe.each(STORE_KINDS.filter((kind) => kind === 'postgres'))('named statements on PostgreSQL (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // One connection, so the session the statements are prepared on is the one inspected.
    store = openStore(database.url, { poolSize: 1 });
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  async function preparedOnSession(): Promise<string[]> {
    const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(store.db);
    return rows.map((r) => r.name);
  }

  it('a named statement is prepared once per connection under its name, then reused; other SQL stays unnamed', async () => {
    expect(await runStatement(store.db, 'findApiKey', ['no such hash'])).toEqual([]);
    expect(await runStatement(store.db, 'findApiKey', ['another hash'])).toEqual([]);
    await store.db.selectFrom('workspaces').select('id').execute();
    expect(await preparedOnSession()).toEqual(['findApiKey_0']);
  });

  it('a query run by its shape is prepared once per shape, whatever its values', async () => {
    const before = await preparedOnSession();
    const shaped = (id: string) => sql<{ id: string }>`select id from workspaces where id = ${id}`;
    const twoIds = (a: string, b: string) => sql<{ id: string }>`select id from workspaces where id = ${a} or id = ${b}`;
    expect(await runShaped(store.db, shaped('a'))).toEqual([]);
    expect(await runShaped(store.db, shaped('b'))).toEqual([]);
    expect(await runShaped(store.db, twoIds('a', 'b'))).toEqual([]);
    const added = (await preparedOnSession()).filter((name) => !before.includes(name));
    expect(added).toHaveLength(2);
    for (const name of added) expect(name).toMatch(/^shape\d+_\d+$/);
  });

  it('works inside transactions, and a failing statement does not break the connection', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        expect(await runStatement(trx, 'findApiKey', ['in a transaction'])).toEqual([]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await runStatement(store.db, 'findApiKey', ['after it'])).toEqual([]);
  });

  it('a table changed by another instance (a migration) is read in its new shape, not refused', async () => {
    const find = () => runStatement(store.db, 'findActiveShift', [newId(), 'test', newId()]);
    expect(await find()).toEqual([]);
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query(`alter table shifts add column extra text default 'x'`);
      expect(await find()).toEqual([]);
      expect(await find()).toEqual([]);
    } finally {
      await other.query('alter table shifts drop column if exists extra');
      await other.end();
    }
  });
});

describe('named statements on SQLite', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('plan each statement as they would with bare parameters: +? changes no query plan', () => {
    const db = new Database(sqliteFilename(database.url), { readonly: true });
    try {
      const plan = (text: string) => {
        const values = Array.from({ length: (text.match(/\?/g) ?? []).length }, () => null);
        return (db.prepare(`explain query plan ${text}`).all(...values) as { detail: string }[]).map((step) => step.detail);
      };
      let steps = 0;
      for (const [name, text] of Object.entries(SQLITE_STATEMENTS)) {
        const written = plan(text);
        steps += written.length;
        expect({ name, plan: written }).toEqual({ name, plan: plan(text.replaceAll('+?', '?')) });
      }
      // An insert of values alone has no plan, the reads do.
      expect(steps).toBeGreaterThan(Object.keys(SQLITE_STATEMENTS).length);
    } finally {
      db.close();
    }
  });
});
