/**
 * Runs the hot paths' named statements (statements.ts) on a store or a transaction of it, with the text of the
 * store it belongs to: `sqlite.ts` or `postgres.ts`.
 */
import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Executor } from '../types.ts';
import { POSTGRES_STATEMENTS } from './postgres.ts';
import { SQLITE_STATEMENTS } from './sqlite.ts';
import type { PostgresStatements, SqliteStatements } from './statements.ts';

export type {
  ApiKeyRow,
  ClaimedDeliveryRow,
  CredentialValues,
  IdempotencyKeyRow,
  KnownHeartbeatValues,
  RecordedHeartbeatRow,
  ResultValues,
} from './statements.ts';
export { POSTGRES_STATEMENTS, SQLITE_STATEMENTS };

/** Whether `db` is a PostgreSQL store (or a transaction of one). */
function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Every named statement, of either store. */
type AnyStatements = PostgresStatements & SqliteStatements;

/**
 * Runs the statement named `name` with `params` on `db`, in the text of the store `db` belongs to; its rows. A
 * statement only one store has (see statements.ts) is refused on the other.
 */
export async function runStatement<N extends keyof AnyStatements>(
  db: Executor,
  name: N,
  params: AnyStatements[N]['params'],
): Promise<AnyStatements[N]['row'][]> {
  const texts: Readonly<Record<string, string | undefined>> = isPostgres(db) ? POSTGRES_STATEMENTS : SQLITE_STATEMENTS;
  const text = texts[name];
  if (text === undefined) throw new Error(`this store has no statement ${name}`);
  const { rows } = await db.executeQuery<AnyStatements[N]['row']>(CompiledQuery.raw(text, [...params]));
  return rows;
}
