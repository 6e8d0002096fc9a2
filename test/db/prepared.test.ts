import { beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/connect.ts';
import { ParamLayers, prepared, type StatementRegistry } from '../../src/db/prepared.ts';
import type { Executor } from '../../src/db/types.ts';
import { workspaceRow } from '../helpers/rows.ts';
import { STORE_KINDS, type TestDatabase, withTestStore } from '../helpers/stores.ts';

const byName = prepared<{ name: string; after: number }, { id: string; name: string }>((db, p) =>
  db
    .selectFrom('workspaces')
    .select(['id', 'name'])
    .where('name', '=', p('name'))
    .where('created_at', '>', p('after'))
    .where('timezone', '=', 'UTC') // a constant: bound the same on every run
    .orderBy('id'),
);

describe.each(STORE_KINDS)('prepared queries (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;
  withTestStore(kind, (opened, made) => {
    store = opened;
    database = made;
  });
  beforeAll(async () => {
    const row = (id: string, name: string, createdAt: number, timezone = 'UTC') =>
      workspaceRow(id, name, createdAt, { timezone });
    await store.db
      .insertInto('workspaces')
      .values([row('w1', 'alpha', 10), row('w2', 'alpha', 20), row('w3', 'beta', 30), row('w4', 'alpha', 40, 'Europe/Berlin')])
      .execute();
  });

  /** The store's registry, as its adapter carries it. */
  const registryOf = (db: Executor) =>
    (db.getExecutor().adapter as { statementRegistry?: StatementRegistry }).statementRegistry;

  it('belong to a store: each store compiles and registers a query itself, transactions sharing their store\'s', async () => {
    const byId = prepared<{ id: string }, { id: string }>((db, p) =>
      db.selectFrom('workspaces').select('id').where('id', '=', p('id')),
    );
    const other = database.open();
    try {
      const mine = registryOf(store.db);
      const theirs = registryOf(other.db);
      expect(mine).toBeDefined();
      expect(theirs).toBeDefined();
      expect(theirs).not.toBe(mine);
      const text = byId.compile(store.db, { id: 'w1' }).sql;
      expect(mine?.isFixed(text)).toBe(true);
      expect(theirs?.isFixed(text)).toBe(false);
      await store.write(async (trx) => {
        expect(registryOf(trx)).toBe(mine);
        expect(await byId.first(trx, { id: 'w3' })).toEqual({ id: 'w3' });
      });
      expect(await byId.first(other.db, { id: 'w2' })).toEqual({ id: 'w2' });
      expect(theirs?.isFixed(text)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('run with the values of each call, outside and inside transactions', async () => {
    expect((await byName.rows(store.db, { name: 'alpha', after: 0 })).map((r) => r.id)).toEqual(['w1', 'w2']);
    expect((await byName.rows(store.db, { name: 'alpha', after: 15 })).map((r) => r.id)).toEqual(['w2']);
    expect(await byName.first(store.db, { name: 'beta', after: 0 })).toEqual({ id: 'w3', name: 'beta' });
    expect(await byName.first(store.db, { name: 'gamma', after: 0 })).toBeUndefined();
    await store.db.transaction().execute(async (trx) => {
      expect((await byName.rows(trx, { name: 'alpha', after: 10 })).map((r) => r.id)).toEqual(['w2']);
    });
  });

  it('take their values from layers, the last layer that has a value winning', async () => {
    const layers = ParamLayers.of({ name: 'beta', after: 100 }, { after: 15 }, { name: 'alpha' });
    expect((await byName.rows(store.db, layers)).map((r) => r.id)).toEqual(['w2']);
    // A layer that holds the name with an undefined value still wins (as a merged copy would have it).
    const undefinedLast = ParamLayers.of({ name: 'alpha', after: 0 }, { after: undefined as unknown as number });
    expect(undefinedLast.get('after')).toBeUndefined();
    expect(undefinedLast.get('name')).toBe('alpha');
  });

  it('refuse a builder whose SQL or bound values change between builds', async () => {
    let n = 0;
    const drifting = prepared<{ name: string }, { id: string }>((db, p) =>
      db.selectFrom('workspaces').select('id').where('name', '=', p('name')).where('created_at', '>', (n += 1)),
    );
    await expect(drifting.rows(store.db, { name: 'alpha' })).rejects.toThrow(/neither a placeholder nor a constant/);
    const shapeShifting = prepared<{ name: string }, { id: string }>((db, p) =>
      (n += 1) % 2 === 0
        ? db.selectFrom('workspaces').select('id').where('name', '=', p('name'))
        : db.selectFrom('workspaces').select('id').where('slug', '=', p('name')),
    );
    await expect(shapeShifting.rows(store.db, { name: 'alpha' })).rejects.toThrow(/fixed SQL/);
  });
});
