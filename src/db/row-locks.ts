/**
 * Row locks taken in one order. PostgreSQL locks a row when a statement changes it, in whatever order the plan
 * visits the rows; two transactions that change overlapping sets of rows in different orders (a batch heartbeat
 * and a server stop, say) can each hold a row the other waits for, and one of them is aborted as a deadlock after
 * a second's wait. A writer that changes several rows which another writer may change too locks them first, in
 * primary-key order, before it changes them or any other row. SQLite runs one writer at a time: nothing to lock.
 */
import { PostgresAdapter, sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Executor } from './types.ts';

/** Whether the store behind `db` takes row locks (PostgreSQL), i.e. whether concurrent writers can deadlock. */
function takesRowLocks(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Tables whose primary key is a text `id`. */
type TableWithId = { [T in keyof Database]: Database[T] extends { id: string } ? T : never }[keyof Database];

/**
 * `id` is one of `ids`, for a statement that changes their rows. On PostgreSQL the ids come from a sub-select, run
 * once before the statement changes any row, that locks the rows in id order (`any(array(...))` then finds them by
 * key as the plain list does, where a sub-select used as a set would be joined). On SQLite the plain list.
 */
export function idAmongLockedInOrder(db: Executor, table: TableWithId, ids: readonly string[]): RawBuilder<SqlBool> {
  if (!takesRowLocks(db)) return sql<SqlBool>`${sql.ref('id')} in (${sql.join([...ids])})`;
  return sql<SqlBool>`${sql.ref('id')} = any(array(select id from ${sql.table(table)} where id = any(${[...ids]}) order by id for no key update))`;
}

/**
 * `query` locking the rows it reads for an update (PostgreSQL; unchanged on SQLite), in the order it reads them:
 * give it an ORDER BY on the primary key.
 */
export function lockingWhatItReads<T extends keyof Database, O>(
  db: Executor,
  query: SelectQueryBuilder<Database, T, O>,
): SelectQueryBuilder<Database, T, O> {
  return takesRowLocks(db) ? query.forNoKeyUpdate() : query;
}
