import { close, fdatasync, open } from 'node:fs';
import { promisify } from 'node:util';
import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

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

/** Whether the connection committed a write since this was last asked (see cachingSqliteDatabase). */
export interface CommitTracker {
  takeUnsyncedCommit(): boolean;
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

export class DurableCommitSqliteDialect extends SqliteDialect {
  private readonly tracker: CommitTracker;
  private readonly wal: WalSync;
  constructor(config: SqliteDialectConfig, tracker: CommitTracker, wal: WalSync) {
    super(config);
    this.tracker = tracker;
    this.wal = wal;
  }

  override createDriver(): Driver {
    return new DurableCommitDriver(super.createDriver(), this.tracker, this.wal);
  }
}
