import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/connect.ts';
import { executeFixed, prepared } from '../../src/db/prepared.ts';
import { newId } from '../../src/ids.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../helpers/stores.ts';
import { workspaceRow } from '../helpers/rows.ts';

const findWorkspaceName = prepared<{ id: string }, { id: string; name: string }>((db, p) =>
  db.selectFrom('workspaces').select(['id', 'name']).where('id', '=', p('id')),
);
const findWholeWorkspace = prepared<{ id: string }, Record<string, unknown>>((db, p) =>
  db.selectFrom('workspaces').selectAll().where('id', '=', p('id')),
);

// PostgreSQL only: SQLite statements are cached in the process (src/db/statement-cache.ts).
describe.each(STORE_KINDS.filter((kind) => kind === 'postgres'))('named prepared statements (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;
  const id = newId();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // One connection, so the session the statements are prepared on is the one inspected.
    store = openStore(database.url, { poolSize: 1 });
    await store.db.insertInto('workspaces').values(workspaceRow(id, 'prepared', 0)).execute();
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  async function preparedOnSession(): Promise<string[]> {
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(store.db);
    return rows.map((r) => r.statement);
  }

  it('a prepared query is parsed once per connection and then reused; other SQL stays unnamed', async () => {
    expect(await findWorkspaceName.first(store.db, { id })).toEqual({ id, name: 'prepared' });
    expect(await findWorkspaceName.first(store.db, { id })).toEqual({ id, name: 'prepared' });
    const statements = await preparedOnSession();
    expect(statements.filter((s) => s.includes('"workspaces"') && s.includes('"name"'))).toHaveLength(1);
    expect(statements.some((s) => s.includes('pg_prepared_statements'))).toBe(false);
  });

  it('an sql template run with executeFixed is named by its text, each text once; its values stay parameters', async () => {
    const nameOf = (workspaceId: string) => sql<{ name: string }>`select name from workspaces where id = ${workspaceId} and 1 = 1`;
    expect((await executeFixed(store.db, nameOf(id))).rows).toEqual([{ name: 'prepared' }]);
    expect((await executeFixed(store.db, nameOf(newId()))).rows).toEqual([]);
    const named = (await preparedOnSession()).filter((s) => s.includes('1 = 1'));
    expect(named).toHaveLength(1);
    expect(named[0]).toContain('$1');
  });

  it('works inside transactions, and a failing statement does not break the connection', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        expect(await findWorkspaceName.first(trx, { id })).toEqual({ id, name: 'prepared' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await findWorkspaceName.first(store.db, { id })).toEqual({ id, name: 'prepared' });
  });

  it('a table changed by another instance (a migration) is read in its new shape, not refused', async () => {
    expect(await findWholeWorkspace.first(store.db, { id })).not.toHaveProperty('extra');
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query(`alter table workspaces add column extra text default 'x'`);
      expect(await findWholeWorkspace.first(store.db, { id })).toMatchObject({ id, extra: 'x' });
      expect(await findWholeWorkspace.first(store.db, { id })).toMatchObject({ id, extra: 'x' });
    } finally {
      await other.query('alter table workspaces drop column if exists extra');
      await other.end();
    }
  });
});
