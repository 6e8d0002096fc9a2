import BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver (better-sqlite3; its current major line needs Node.js 22 or later), alone: the background
 * thread's checkpointer and the backup open their own connections with it and must not load Kysely with the store's
 * dialect (sqlite-dialect.ts): the thread would start later, and its first checkpoint with it.
 */
export const SqliteDatabase = BetterSqlite3;
export type SqliteHandle = BetterSqlite3.Database;
