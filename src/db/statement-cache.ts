import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely prepares every query anew; on better-sqlite3 that preparation is a large share of a request's CPU.
 * Statements are reused by SQL text (bounded, least recently used evicted). Only `all` and `run` are reused —
 * both finish synchronously — while `iterate` (streaming, which holds its statement) gets a fresh one.
 */
export function cachingSqliteDatabase(handle: SqliteHandle, capacity = 500): SqliteDatabase {
  const cache = new Map<string, Statement>();

  function statement(sql: string): Statement {
    const hit = cache.get(sql);
    if (hit) {
      cache.delete(sql);
      cache.set(sql, hit);
      return hit;
    }
    const prepared = handle.prepare(sql);
    cache.set(sql, prepared);
    if (cache.size > capacity) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return prepared;
  }

  return {
    close: () => {
      cache.clear();
      handle.close();
    },
    prepare(sql: string): SqliteStatement {
      const prepared = statement(sql);
      return {
        reader: prepared.reader,
        all: (parameters) => prepared.all(...parameters),
        run: (parameters) => prepared.run(...parameters),
        iterate: (parameters) => handle.prepare(sql).iterate(...parameters),
      };
    },
  };
}
