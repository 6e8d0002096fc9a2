/**
 * How Kysely talks to the embedded store (better-sqlite3, sqlite-driver.ts), as pg-dialect.ts says it for
 * PostgreSQL: the query compiler, prepared statements reused by their text, and commits made durable off the
 * event loop.
 */
import { close, fdatasync, open } from 'node:fs';
import { promisify } from 'node:util';
import type { Statement } from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect as KyselyDialect,
  type Driver,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteStatement,
} from 'kysely';

import type { SqliteHandle } from './sqlite-driver.ts';

/**
 * SQLite's query compiler, writing every value as `+?` (the no-op unary plus) instead of a bare `?`. When SQLite's
 * planner compares a bare parameter with a constant while planning (it does for a join, for a partial index, for
 * an ORDER BY ... LIMIT), it marks the statement to be compiled again whenever that parameter is bound anew, so a
 * statement the store keeps prepared (cachingSqliteDatabase) was parsed and planned on every run, a real share of
 * a heartbeat's cost (docs/BENCHMARKS.md, "Smaller choices"). `+?` is an expression, not a parameter, to that check, and
 * plans the same (test/db/prepared-statements.test.ts compares every snapshotted statement's plan with its bare
 * twin).
 */
export class SqliteValueQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}

/** A SQLite dialect whose queries compile with SqliteValueQueryCompiler. */
export function withValuePlaceholders(dialect: KyselyDialect): KyselyDialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => new SqliteValueQueryCompiler(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Prepared statements, reused
// ---------------------------------------------------------------------------------------------------------

/** Whether the connection committed a write since this was last asked (for the durable-commit driver). */
interface CommitTracker {
  takeUnsyncedCommit(): boolean;
}

/**
 * Kysely prepares every query anew; on better-sqlite3 that preparation is a large share of a request's CPU.
 * Statements are reused by SQL text (bounded, least recently used evicted). Only `all` and `run` are reused —
 * both finish synchronously — while `iterate` (streaming, which holds its statement) gets a fresh one. It also
 * notes when a write was committed, for the durable-commit driver below.
 */
export function cachingSqliteDatabase(handle: SqliteHandle, capacity = 500): KyselySqliteDatabase & CommitTracker {
  const cache = new Map<string, Statement>();
  // Statements that change nothing although SQLite does not call them read-only: `BEGIN IMMEDIATE` (it takes the
  // write lock; the store begins every transaction so, see DurableCommitDriver).
  const notWrites = new WeakSet<Statement>();
  // Writes made since the last commit, and commits made since the last flush was asked for.
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

// ---------------------------------------------------------------------------------------------------------
// Durable commits off the event loop
// ---------------------------------------------------------------------------------------------------------

const openFile = promisify(open);
const syncFile = promisify(fdatasync);
const closeFile = promisify(close);

/**
 * Flushes a SQLite write-ahead log to disk from the thread pool, so a commit's fsync never blocks the event loop.
 * Calls made while a flush is under way share the next one (which starts after every commit they follow), so
 * however many requests commit at once, the disk sees one flush at a time.
 */
export class WalSync {
  private fd: number | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private closed = false;

  private readonly walPath: string;
  constructor(walPath: string) {
    this.walPath = walPath;
  }

  /** Resolves once everything committed before the call is on disk. */
  sync(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    if (!this.running) {
      this.running = this.flushNow().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    // A flush is under way, but it may have started before this caller's commit: wait for the one after it.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.sync();
      });
    return this.next;
  }

  /** One flush of the log (protected: tests count them). */
  protected async flushNow(): Promise<void> {
    // The log exists from the first commit on, and SQLite keeps it (same file) while any connection is open.
    this.fd ??= await openFile(this.walPath, 'r');
    await syncFile(this.fd);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([this.running, this.next]);
    if (this.fd !== undefined) await closeFile(this.fd);
    this.fd = undefined;
  }
}

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');

/**
 * SQLite's driver, with durable commits off the event loop: the store runs with `synchronous=NORMAL` (a commit
 * is written to the log, not flushed), and whoever committed a write gets the connection's release (the end of
 * its transaction, or of its single statement) only once the log is flushed. So a write is on disk before its
 * caller goes on, as with `synchronous=FULL`, while the event loop serves other requests during the flush and
 * the next transaction may already run.
 */
class DurableCommitDriver implements Driver {
  private readonly inner: Driver;
  private readonly tracker: CommitTracker;
  private readonly wal: WalSync;
  constructor(inner: Driver, tracker: CommitTracker, wal: WalSync) {
    this.inner = inner;
    this.tracker = tracker;
    this.wal = wal;
  }

  init(): Promise<void> {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }
  /**
   * `BEGIN IMMEDIATE`: the write lock is taken when the transaction begins, waiting (busy_timeout) for another
   * process's write to end. A plain `BEGIN` reads first and upgrades at its first write, and when another
   * process (the CLI's `keys` or `provision`) committed after that read, SQLite refuses the upgrade at once
   * with "database is locked".
   */
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(BEGIN_IMMEDIATE);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }
  async savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>): Promise<void> {
    await this.inner.savepoint?.(...args);
  }
  async rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>): Promise<void> {
    await this.inner.rollbackToSavepoint?.(...args);
  }
  async releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>): Promise<void> {
    await this.inner.releaseSavepoint?.(...args);
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const committed = this.tracker.takeUnsyncedCommit();
    await this.inner.releaseConnection(connection);
    if (committed) await this.wal.sync();
  }
  async destroy(): Promise<void> {
    await this.wal.close();
    await this.inner.destroy();
  }
}

/** SQLite's dialect with durable commits (DurableCommitDriver) on the database `cachingSqliteDatabase` made. */
export class DurableCommitSqliteDialect extends SqliteDialect {
  private readonly tracker: CommitTracker;
  private readonly wal: WalSync;
  constructor(database: KyselySqliteDatabase & CommitTracker, wal: WalSync) {
    super({ database });
    this.tracker = database;
    this.wal = wal;
  }

  override createDriver(): Driver {
    return new DurableCommitDriver(super.createDriver(), this.tracker, this.wal);
  }
}
