/**
 * Runs the hot paths' named statements (statements.ts) on a store or a transaction of it, with the text of the
 * store it belongs to: `sqlite.ts` or `postgres.ts`.
 */
import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Executor } from '../types.ts';
import { POSTGRES_STATEMENTS } from './postgres.ts';
import { SQLITE_STATEMENTS } from './sqlite.ts';
import type { PostgresStatements, SharedStatements, SqliteStatements } from './statements.ts';

export type { ApiKeyRow, CredentialValues, IdempotencyKeyRow, RecordedHeartbeatRow, ResultValues } from './statements.ts';
export { POSTGRES_STATEMENTS, SQLITE_STATEMENTS };

/** Whether `db` is a PostgreSQL store (or a transaction of one). */
export function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function execute<Row>(db: Executor, text: string, params: readonly unknown[]): Promise<Row[]> {
  const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(text, [...params]));
  return rows;
}

/** Runs the statement both stores have under `name` with `params`; its rows. */
export function runStatement<N extends keyof SharedStatements>(
  db: Executor,
  name: N,
  params: SharedStatements[N]['params'],
): Promise<SharedStatements[N]['row'][]> {
  const text = isPostgres(db) ? POSTGRES_STATEMENTS[name] : SQLITE_STATEMENTS[name];
  return execute(db, text, params);
}

/** Runs a statement only PostgreSQL has (`db` must be a PostgreSQL store). */
export function runPostgresStatement<N extends keyof PostgresStatements>(
  db: Executor,
  name: N,
  params: PostgresStatements[N]['params'],
): Promise<PostgresStatements[N]['row'][]> {
  return execute(db, POSTGRES_STATEMENTS[name], params);
}

/** Runs a statement only SQLite has (`db` must be a SQLite store). */
export function runSqliteStatement<N extends keyof SqliteStatements>(
  db: Executor,
  name: N,
  params: SqliteStatements[N]['params'],
): Promise<SqliteStatements[N]['row'][]> {
  return execute(db, SQLITE_STATEMENTS[name], params);
}
