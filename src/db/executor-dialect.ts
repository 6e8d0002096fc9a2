import { PostgresAdapter } from 'kysely';
import type { Dialect, Executor } from './types.js';

/** The dialect of the store behind `db` (a store's Kysely instance or one of its transactions). */
export function dialectOf(db: Executor): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
