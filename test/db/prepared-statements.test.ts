import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, sqliteFilename, type Store } from '../../src/db/connect.ts';
import { MAX_NAMED_TEXTS } from '../../src/db/pg-dialect.ts';
import { newId } from '../../src/shared/ids.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../helpers/stores.ts';
import { loadQueryModule, moduleSamples, queryModules, sampleQueries } from './sql-samples.ts';

describe.each(STORE_KINDS.filter((kind) => kind === 'postgres'))('prepared statements on PostgreSQL (%s)', (kind) => {
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
  const findKey = (hash: string) => sql<{ id: string }>`select id from api_keys where key_hash = ${hash}`.execute(store.db);

  it('a statement with values is prepared once per connection under a name derived from its text, then reused', async () => {
    const before = await preparedOnSession();
    expect((await findKey('no such hash')).rows).toEqual([]);
    expect((await findKey('another hash')).rows).toEqual([]);
    await store.db.selectFrom('workspaces').select('id').where('id', '=', 'a').execute();
    await store.db.selectFrom('workspaces').select('id').where('id', '=', 'b').execute();
    const added = (await preparedOnSession()).filter((name) => !before.includes(name));
    expect(added).toHaveLength(2);
    for (const name of added) expect(name).toMatch(/^s[0-9a-f]{16}_\d+$/);
  });

  it('a store names statements of its own: the same text has the same name in another store', async () => {
    const other = openStore(database.url, { poolSize: 1 });
    try {
      await sql`select id from api_keys where key_hash = ${'x'}`.execute(other.db);
      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(other.db);
      expect(rows.map((r) => r.name)).toEqual((await preparedOnSession()).filter((name) => rows.some((r) => r.name === name)));
      expect(rows.length).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });

  it('statements without values other than reads (DDL, transaction control) stay unnamed', async () => {
    const before = await preparedOnSession();
    await store.db.transaction().execute(async (trx) => {
      await sql`create temporary table scratch (id text) on commit drop`.execute(trx);
    });
    expect((await preparedOnSession()).filter((name) => !before.includes(name))).toEqual([]);
  });

  it('a store names at most MAX_NAMED_TEXTS texts; beyond them, new texts run unnamed', async () => {
    const bounded = openStore(database.url, { poolSize: 1 });
    try {
      const count = async () =>
        Number((await sql<{ n: string }>`select count(*) as n from pg_prepared_statements`.execute(bounded.db)).rows[0]?.n);
      for (let i = 0; i < MAX_NAMED_TEXTS + 20; i += 1) {
        expect((await sql<{ v: number }>`select ${sql.lit(i)} + ${1} as v`.execute(bounded.db)).rows).toEqual([{ v: i + 1 }]);
      }
      // The count's own text came after the bound: it is one of those run unnamed.
      expect(await count()).toBe(MAX_NAMED_TEXTS);
    } finally {
      await bounded.close();
    }
  });

  it('works inside transactions, and a failing statement does not break the connection', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        expect((await sql`select id from api_keys where key_hash = ${'in a transaction'}`.execute(trx)).rows).toEqual([]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await findKey('after it')).rows).toEqual([]);
  });

  it('a table changed by another instance (a migration) is read in its new shape, not refused', async () => {
    const find = async () => (await sql`select * from shifts where id = ${newId()}`.execute(store.db)).rows;
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

/** A value as better-sqlite3 binds it (it takes no booleans). */
function bindable(value: unknown): unknown {
  return typeof value === 'boolean' ? Number(value) : value;
}

describe('statements on SQLite', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('plan every snapshotted statement as they would with bare parameters: +? changes no query plan', async () => {
    const db = new Database(sqliteFilename(database.url), { readonly: true });
    try {
      // With the sample's own values: SQLite matches a bare parameter's value with a partial index's predicate.
      const plan = (text: string, values: readonly unknown[]) =>
        (db.prepare(`explain query plan ${text}`).all(...values.map(bindable)) as { detail: string }[]).map((step) => step.detail);
      let steps = 0;
      let statements = 0;
      for (const module of await Promise.all(queryModules().map(loadQueryModule))) {
        for (const [name, sample] of moduleSamples(module)) {
          for (const query of await sampleQueries(sample, 'sqlite')) {
            const written = plan(query.sql, query.parameters);
            steps += written.length;
            statements += 1;
            expect({ sample: name, plan: written }).toEqual({
              sample: name,
              plan: plan(query.sql.replaceAll('+?', '?'), query.parameters),
            });
          }
        }
      }
      // An insert of values alone has no plan, the reads do.
      expect(steps).toBeGreaterThan(statements);
    } finally {
      db.close();
    }
  });
});
