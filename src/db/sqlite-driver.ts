import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver for this Node.js version. better-sqlite3 12 is the one that runs on Node 20, but on Node 24
 * its statements abort the process when a garbage collection finalizes them outside JavaScript (Node's
 * `ObjectWrap` cleanup hooks); better-sqlite3 13 fixes that and needs Node 22 or later. Both are installed where
 * they can be (13 as the optional `better-sqlite3-node22`, which npm skips on Node 20), and 13 is used when the
 * runtime has it. Their APIs are the same for everything this service does.
 */
const require = createRequire(import.meta.url);

function load(): typeof BetterSqlite3 {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) {
    try {
      return require('better-sqlite3-node22') as typeof BetterSqlite3;
    } catch {
      // Not installed (e.g. node_modules made by Node 20): fall back to the one that is.
    }
  }
  return require('better-sqlite3') as typeof BetterSqlite3;
}

export const SqliteDatabase = load();
export type SqliteHandle = BetterSqlite3.Database;
