/**
 * The plans of statements the code would send, for tests that a statement reads the index it must: the statements
 * recorded without a database (recordingDb), then explained on a real store.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { Store } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/types.ts';
import type { StoreKind } from '../helpers/stores.ts';
import { recordingDb } from './sql-samples.ts';

/** The statements `run` sends, without a database, its transaction's `begin`, `commit` and `rollback` left out. */
export async function statementsOf(kind: StoreKind, run: (db: Kysely<Database>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const queries: CompiledQuery[] = [];
  await run(recordingDb(kind, queries));
  return queries.filter((query) => !/^(begin|commit|rollback)/i.test(query.sql));
}

/**
 * The last statement's plan, after the statements before it in one transaction (on PostgreSQL, where they are
 * planner settings): SQLite's EXPLAIN QUERY PLAN details one a line, PostgreSQL's EXPLAIN as JSON.
 */
export async function planOf(kind: StoreKind, store: Store, statements: readonly CompiledQuery[]): Promise<string> {
  const query = statements.at(-1);
  if (query === undefined) throw new Error('no statement');
  if (kind === 'sqlite') {
    const explain = CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]);
    const { rows } = await store.db.executeQuery<{ detail: string }>(explain);
    return rows.map((row) => row.detail).join('\n');
  }
  return store.db.transaction().execute(async (trx) => {
    for (const before of statements.slice(0, -1)) await trx.executeQuery(before);
    const explain = CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(explain);
    return JSON.stringify(rows[0]?.['QUERY PLAN']);
  });
}
