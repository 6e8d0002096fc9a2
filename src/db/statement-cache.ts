import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { CommitTracker } from './wal-sync.ts';

/**
 * Kysely prepares every query anew; on better-sqlite3 that preparation is a large share of a request's CPU.
 * Statements are reused by SQL text (bounded, least recently used evicted). Only `all` and `run` are reused —
 * both finish synchronously — while `iterate` (streaming, which holds its statement) gets a fresh one. It also
 * notes when a write was committed, for the store's durable-commit driver (src/db/wal-sync.ts).
 */
export function cachingSqliteDatabase(handle: SqliteHandle, capacity = 500): SqliteDatabase & CommitTracker {
  const cache = new Map<string, Statement>();
  // Statements that change nothing although SQLite does not call them read-only: `BEGIN IMMEDIATE` (it takes the
  // write lock; the store begins every transaction so, see wal-sync.ts).
  const notWrites = new WeakSet<Statement>();
  // Writes made since the last commit, and commits made since the last flush was asked for (src/db/wal-sync.ts).
  let wrote = false;
  let unsynced = false;

  function ran(prepared: Statement): void {
    if (!prepared.readonly && !notWrites.has(prepared)) wrote = true;
    if (wrote && !handle.inTransaction) {
      wrote = false;
      unsynced = true;
    }
  }

  function statement(sql: string): Statement {
    const hit = cache.get(sql);
    if (hit) {
      cache.delete(sql);
      cache.set(sql, hit);
      return hit;
    }
    const prepared = handle.prepare(sql);
    if (/^\s*begin\b/i.test(sql)) notWrites.add(prepared);
    cache.set(sql, prepared);
    if (cache.size > capacity) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return prepared;
  }

  return {
    takeUnsyncedCommit: () => {
      const taken = unsynced;
      unsynced = false;
      return taken;
    },
    close: () => {
      cache.clear();
      handle.close();
    },
    prepare(sql: string): SqliteStatement {
      const prepared = statement(sql);
      return {
        reader: prepared.reader,
        all: (parameters) => {
          const rows = prepared.all(...parameters);
          ran(prepared);
          return rows;
        },
        run: (parameters) => {
          const result = prepared.run(...parameters);
          ran(prepared);
          return result;
        },
        iterate: (parameters) => handle.prepare(sql).iterate(...parameters),
      };
    },
  };
}
