import BetterSqlite3 from 'better-sqlite3';

/** The SQLite driver (better-sqlite3; its current major line needs Node.js 22 or later). */
export const SqliteDatabase = BetterSqlite3;
export type SqliteHandle = BetterSqlite3.Database;
