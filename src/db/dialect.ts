/**
 * Where the two stores' SQL differs, as small helpers a query uses inline: the store an executor belongs to is
 * decided here and nowhere else. A statement both stores accept is written once (Kysely compiles its
 * placeholders per store: `+?` on SQLite, see sqlite-dialect.ts; `$n` on PostgreSQL).
 */
import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Dialect, Executor } from './types.ts';

/** Which store `db` (a store's Kysely instance or one of its transactions) belongs to. */
export function dialectOf(db: Executor): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Column types a JSON recordset declares (PostgreSQL needs them; SQLite reads each field as its JSON type). */
export type RecordsetColumnType = 'text' | 'bigint' | 'integer';

/**
 * Rows given as one JSON value (an array of objects), as a table named `alias` with `columns` in a FROM clause
 * (to join or update from): a statement that writes or joins many rows keeps one text whatever their number (one
 * prepared statement, not one per count).
 */
export function jsonRecordset(
  db: Executor,
  rows: readonly object[],
  alias: string,
  columns: Readonly<Record<string, RecordsetColumnType>>,
): RawBuilder<unknown> {
  const json = JSON.stringify(rows);
  const names = Object.keys(columns);
  if (dialectOf(db) === 'postgres') {
    const declared = names.map((name) => `${name} ${columns[name]}`).join(', ');
    return sql`json_to_recordset(${json}::json) as ${sql.raw(alias)}(${sql.raw(declared)})`;
  }
  const fields = names.map((name) => `value ->> '${name}' as ${name}`).join(', ');
  return sql`(select ${sql.raw(fields)} from json_each(${json})) as ${sql.raw(alias)}`;
}

/**
 * The same rows as a SELECT of `columns` in order, then `constants` (for an INSERT … SELECT): on SQLite read from
 * the JSON directly (a SELECT from the recordset as a subquery costs SQLite a few more instructions a row).
 */
export function selectJsonRows(
  db: Executor,
  rows: readonly object[],
  columns: Readonly<Record<string, RecordsetColumnType>>,
  constants?: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const names = Object.keys(columns);
  const rest = constants === undefined ? sql`` : sql`, ${constants}`;
  if (dialectOf(db) === 'postgres') {
    return sql`select ${sql.raw(names.join(', '))}${rest}
from ${jsonRecordset(db, rows, 'r', columns)}`;
  }
  const fields = names.map((name) => `value ->> '${name}'`).join(', ');
  return sql`select ${sql.raw(fields)}${rest}
from json_each(${JSON.stringify(rows)})`;
}

/**
 * Whether `column` is one of `values`, given as one JSON value: one text for any number of values. On PostgreSQL
 * an array (`= any`), which it reads by index as a list of keys.
 */
export function inJsonList(db: Executor, column: string, values: readonly string[]): RawBuilder<boolean> {
  const json = JSON.stringify(values);
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`${sql.raw(column)} = any(array(select json_array_elements_text(${json}::json)))`
    : sql<boolean>`${sql.raw(column)} in (select value from json_each(${json}))`;
}

/** Whether `column` is none of `values`, given as one JSON value. */
export function notInJsonList(db: Executor, column: string, values: readonly string[]): RawBuilder<boolean> {
  const json = JSON.stringify(values);
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`${sql.raw(column)} not in (select json_array_elements_text(${json}::json))`
    : sql<boolean>`${sql.raw(column)} not in (select value from json_each(${json}))`;
}

/**
 * The larger of two values (SQLite's two-argument `max`, PostgreSQL's `greatest`); each a `sql` fragment or a
 * value.
 */
export function greatest(db: Executor, a: unknown, b: unknown): RawBuilder<number> {
  return dialectOf(db) === 'postgres' ? sql<number>`greatest(${a}, ${b})` : sql<number>`max(${a}, ${b})`;
}

/**
 * The tail of a SELECT that claims rows other transactions may hold (`for update skip locked`, PostgreSQL):
 * locked rows are passed over instead of waited for. Nothing on SQLite, whose one writer needs no row locks.
 */
export function skipLocked(db: Executor): RawBuilder<unknown> {
  return dialectOf(db) === 'postgres' ? sql.raw('\nfor update skip locked') : sql.raw('');
}

/**
 * The tail of a SELECT that also locks the rows it reads of the table aliased `alias` (`for no key update of`), on
 * PostgreSQL, as lockRows locks them; nothing on SQLite. The lock is taken after the statement's snapshot: a later
 * statement of the transaction sees what the lock's earlier holders committed, this one may not.
 */
export function lockingRowsOf(db: Executor, alias: string): RawBuilder<unknown> {
  if (!/^[a-z_]+$/.test(alias)) throw new Error(`a table alias must be lowercase letters and underscores: ${alias}`);
  return dialectOf(db) === 'postgres' ? sql.raw(`for no key update of ${alias}`) : sql.raw('');
}

/**
 * Locks the rows `select` reads (`for no key update`) until the transaction ends, on PostgreSQL; on SQLite, whose
 * one writer needs no row locks, nothing runs (a SELECT would only read them).
 */
export async function lockRows(db: Executor, select: RawBuilder<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`${select}\nfor no key update`.execute(db);
}

/**
 * Whether `column` is one of `values` (as inJsonList), for an UPDATE that must hold the rows `lockSelect` reads
 * locked in its order before it changes any (as lockRows would lock them in a statement of its own). On
 * PostgreSQL the statement locks them itself: `lockSelect` becomes an array the statement computes once, first
 * (an init plan), so one round trip does both; its result holds the rows' newest committed versions, as a later
 * statement would see them. On SQLite, whose one writer needs no row locks, inJsonList alone.
 */
export function inJsonListLocked(
  db: Executor,
  column: string,
  values: readonly string[],
  lockSelect: RawBuilder<unknown>,
): RawBuilder<boolean> {
  if (dialectOf(db) === 'postgres') return sql<boolean>`${sql.raw(column)} = any(array(${lockSelect}\nfor no key update))`;
  return inJsonList(db, column, values);
}

/**
 * Writes that neither read nor change what another of them writes (inserts into different tables, say), in order:
 * on PostgreSQL as one statement, each but the last a data-modifying CTE (one round trip; its constraints, a
 * foreign key to a row an earlier one inserts among them, are checked at the statement's end); on SQLite, where a
 * statement costs no round trip, one after another.
 */
export async function writeTogether(db: Executor, writes: readonly RawBuilder<unknown>[]): Promise<void> {
  const last = writes[writes.length - 1];
  if (last === undefined) return;
  await writeThenRead(db, writes.slice(0, -1), last);
}

/**
 * `writes` (as writeTogether takes them), then `read` of tables none of them writes, in one statement on
 * PostgreSQL (`read` sees what was committed before it, as a statement of its own would); the rows `read` returns.
 */
export async function writeThenRead<R>(db: Executor, writes: readonly RawBuilder<unknown>[], read: RawBuilder<R>): Promise<R[]> {
  if (dialectOf(db) === 'postgres') {
    const earlier = writes.map((write, i) => sql`${sql.raw(`write_${i}`)} as (\n${write}\n)`);
    return rowsOf(db, earlier.length === 0 ? read : sql<R>`with ${sql.join(earlier, sql`,\n`)}\n${read}`);
  }
  for (const write of writes) await write.execute(db);
  return rowsOf(db, read);
}

/** Runs a `sql` template on `db` and returns its rows. */
export async function rowsOf<R>(db: Executor, query: RawBuilder<R>): Promise<R[]> {
  return (await query.execute(db)).rows;
}

/**
 * `expression` compared by Unicode code points: SQLite's default (binary) collation compares UTF-8 bytes, which
 * order as code points; PostgreSQL compares by the database's collation unless told `"C"` (bytes, likewise).
 */
export function byCodePoints(db: Executor, expression: string): RawBuilder<string> {
  return dialectOf(db) === 'postgres' ? sql<string>`${sql.raw(expression)} collate "C"` : sql<string>`${sql.raw(expression)}`;
}

/**
 * An aggregate over a correlated subquery's rows: a JSON array holding, per row, the JSON array of `columns` (of
 * the subquery's tables, written as constant text), or null over no row. For the few rows of another table a read
 * carries beside each of its own (a staff member's shifts under way), in the same statement. jsonArraysOf reads it.
 */
export function jsonArrays(db: Executor, columns: readonly string[]): RawBuilder<unknown> {
  const list = sql.raw(columns.join(', '));
  return dialectOf(db) === 'postgres'
    ? sql`json_agg(json_build_array(${list}))`
    : sql`nullif(json_group_array(json_array(${list})), '[]')`;
}

/** The rows of a jsonArrays value (SQLite answers it as text, PostgreSQL parsed), each an array; none for null. */
export function jsonArraysOf(value: unknown): unknown[][] {
  if (value === null || value === undefined) return [];
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(parsed) || !parsed.every(Array.isArray)) throw new Error('a JSON aggregate is not an array of arrays');
  return parsed as unknown[][];
}
