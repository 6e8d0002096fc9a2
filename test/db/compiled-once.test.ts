import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CompiledOnce } from '../../src/db/compiled.ts';
import type { Store } from '../../src/db/connect.ts';
import { STORE_KINDS, withTestStore } from '../helpers/stores.ts';

interface Values {
  readonly low: number;
  readonly high: number;
  readonly label: string | null;
}

/** A statement that takes `low` twice, `high` once, `label` never first, and a constant of its own in between. */
const statement = new CompiledOnce<Values, { a: number; b: number; label: string | null; fixed: string }>(
  (term) => sql`select ${term('low')} + 0 as a, cast(${term('high')} as integer) - cast(${term('low')} as integer) as b,
  ${sql`${'constant'}`} as fixed, coalesce(${term('label')}, ${sql`${'none'}`}) as label`,
);

describe.each(STORE_KINDS)('a statement compiled once (%s)', (kind) => {
  let store: Store;
  withTestStore(kind, (opened) => {
    store = opened;
  });

  it('binds each run its own values where the text takes them, constants kept, in and out of a transaction', async () => {
    const rows = async (values: Values) =>
      (await statement.rows(store.db, values)).map((row) => ({ ...row, a: Number(row.a), b: Number(row.b) }));
    expect(await rows({ low: 2, high: 7, label: 'x' })).toEqual([{ a: 2, b: 5, fixed: 'constant', label: 'x' }]);
    expect(await rows({ low: 10, high: 11, label: null })).toEqual([{ a: 10, b: 1, fixed: 'constant', label: 'none' }]);
    const inTransaction = await store.db
      .transaction()
      .execute((trx) => statement.rows(trx, { low: 1, high: 1, label: 'y' }));
    expect(inTransaction.map((row) => Number(row.b))).toEqual([0]);
  });

  it('writes the same text the statement composed anew would, on every run', async () => {
    const compiled: string[] = [];
    const composed = sql`select ${3} + 0 as a`.compile(store.db).sql;
    const once = new CompiledOnce<{ n: number }, { a: number }>((term) => {
      const query = sql`select ${term('n')} + 0 as a`;
      compiled.push(query.compile(store.db).sql);
      return query;
    });
    for (const n of [1, 2, 3]) expect((await once.rows(store.db, { n })).map((row) => Number(row.a))).toEqual([n]);
    expect(compiled).toEqual([composed]);
  });
});
