import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { BackgroundThread } from '../background/thread.ts';
import { startCheckpointer } from './checkpointer.ts';
import { GroupCommit, type AfterCommitMarks } from './group-commit.ts';
import { ReadTurns } from './read-turns.ts';
import type { CheckpointerData } from './checkpointer-worker.ts';
import type { Store } from './store.ts';
import {
  cachingSqliteDatabase,
  DurableCommitSqliteDialect,
  WalSync,
  withValuePlaceholders,
} from './sqlite-dialect.ts';
import { SqliteDatabase } from './sqlite-driver.ts';
import { CurrentSchemaPostgresDialect, preparingPool, type UnavailabilityReport } from './pg-dialect.ts';
import type { Database, Executor } from './types.ts';

export type { Store, WriteJob } from './store.ts';

const NOTIFY = Symbol('notify after commit');

/** A transaction of a store's write: whether the write asked to notify the store's listeners once committed. */
interface Notifying {
  [NOTIFY]?: boolean;
}

/**
 * Asks the store whose write runs on `trx` to call its after-commit listeners (Store.afterCommit) once that write
 * is durable. Nothing happens for an executor that is not a store's write (it has no commit to wait for).
 */
export function notifyAfterCommit(trx: Executor): void {
  if (NOTIFY in trx) (trx as Notifying)[NOTIFY] = true;
}

/** A store's after-commit listeners, and the mark its writes' transactions carry (see notifyAfterCommit). */
export class CommitListeners implements AfterCommitMarks {
  private readonly listeners: (() => void)[] = [];

  add(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Readies `trx` for one write (a job): it has asked for nothing yet. */
  begin(trx: Transaction<Database>): void {
    (trx as Notifying)[NOTIFY] = false;
  }

  /** Whether the write that ran on `trx` since `begin` asked to notify. */
  asked(trx: Transaction<Database>): boolean {
    return (trx as Notifying)[NOTIFY] === true;
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}

export interface StoreOptions {
  /** PostgreSQL schema to place on the search path (tests use one schema per file). */
  readonly searchPath?: string;
  readonly poolSize?: number;
  /**
   * SQLite file stores: checkpoint the write-ahead log from the background thread instead of inside commits
   * (for the serving process; see checkpointer-worker.ts). The store's own automatic checkpoint stays as a
   * fallback at a higher threshold.
   */
  readonly backgroundCheckpoints?: boolean | CheckpointSettings;
  /** The thread the checkpoints run on, shared with the process's other background work (default: one of their own). */
  readonly backgroundThread?: BackgroundThread;
  /** PostgreSQL: how long to wait for the database (see DatabaseTimeouts). */
  readonly timeouts?: DatabaseTimeouts;
  /**
   * PostgreSQL: told of each failure that means the database is unreachable (once per broken connection, once per
   * connection that could not be opened, once per statement timed out), for the serving process's log and metrics.
   */
  readonly onUnavailable?: UnavailabilityReport;
}

/**
 * How long a PostgreSQL store waits before it gives the database up (docs/CONFIGURATION.md, the DATABASE_*_MS
 * settings): opening a connection or waiting for a free one (`connectMs`); a statement, a lock wait, and a
 * transaction left idle (`statementMs`, off when 0 or absent: the command line's long operations and migrations
 * run without it); closing an unused connection (`idleMs`). An absent setting is node-postgres's default (no
 * connection timeout, 10 s idle): the serving process sets all three from its configuration.
 */
export interface DatabaseTimeouts {
  readonly connectMs?: number;
  readonly statementMs?: number;
  readonly idleMs?: number;
}

/** How much longer than the server's own statement timeout a silent connection is waited for. */
const SILENT_CONNECTION_GRACE_MS = 500;
/** TCP keepalive probes start after this long without traffic, so that a dead peer of an idle connection is found. */
const KEEPALIVE_IDLE_MS = 10_000;

/** When the background checkpointer runs, and from which log size it has the log start over (tests shorten both). */
export type CheckpointSettings = Omit<CheckpointerData, 'filename'>;

/**
 * How often the background checkpointer runs; the log size (pages) from which it holds the writes for a moment so
 * the log can start over (checkpointer-worker.ts); and the size at which a commit checkpoints anyway.
 */
const DEFAULT_CHECKPOINTS: CheckpointSettings = { intervalMs: 500, restartPages: 4_096 };
const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;
/** Milliseconds of reads one turn of the event loop runs on SQLite before the rest wait for the next turn. */
const READ_TURN_BUDGET_MS = 5;

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function pgTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: string) => {
      // Instants are stored as BIGINT epoch milliseconds: well inside Number's exact range.
      if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format as 'text');
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

export function sqliteFilename(url: string): string {
  const rest = url.slice('sqlite:'.length);
  if (rest === ':memory:' || rest === '') return ':memory:';
  return rest.startsWith('//') ? rest.slice(2) : rest;
}

/**
 * SQLite's page cache for the store's connection, in KiB. better-sqlite3 builds SQLite with 16 MB, which a large
 * database fills, all of it resident. With 4 MB the pages it no longer keeps come back from the operating system's
 * file cache, a few more `pread`s of pages already in memory per request (docs/BENCHMARKS.md, "Memory").
 */
const PAGE_CACHE_KIB = 4_000;

function openSqlite(url: string, options: StoreOptions): Store {
  const filename = sqliteFilename(url);
  if (filename !== ':memory:') mkdirSync(dirname(resolve(filename)), { recursive: true });
  const sqlite = new SqliteDatabase(filename);
  const journal = String(sqlite.pragma('journal_mode = WAL', { simple: true })).toLowerCase();
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  const database = cachingSqliteDatabase(sqlite);
  let dialect: SqliteDialect;
  if (journal === 'wal' && filename !== ':memory:') {
    // A commit is on disk before its caller goes on (a 200 means it is durable), but the log is flushed from the
    // thread pool rather than inside COMMIT on the event loop: see sqlite-dialect.ts.
    sqlite.pragma('synchronous = NORMAL');
    dialect = new DurableCommitSqliteDialect(database, new WalSync(`${filename}-wal`));
  } else {
    // No write-ahead log (an in-memory store, or a file system without WAL support): SQLite flushes each commit.
    sqlite.pragma('synchronous = FULL');
    dialect = new SqliteDialect({ database });
  }
  const db = new Kysely<Database>({ dialect: withValuePlaceholders(dialect) });
  const commits = new CommitListeners();
  const writer = new GroupCommit(db, { commits });
  const reads = new ReadTurns(READ_TURN_BUDGET_MS);
  let stopCheckpointer: (() => Promise<void>) | undefined;
  const checkpoints = options.backgroundCheckpoints === true ? DEFAULT_CHECKPOINTS : options.backgroundCheckpoints;
  if (checkpoints && filename !== ':memory:') {
    sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    const thread = options.backgroundThread ?? new BackgroundThread();
    stopCheckpointer = startCheckpointer({ filename, ...checkpoints }, writer, thread);
  }
  return {
    db,
    dialect: 'sqlite',
    write: (job) => writer.write(job),
    read: (job) => reads.run(job),
    afterCommit: (listener) => commits.add(listener),
    close: async () => {
      await stopCheckpointer?.();
      await db.destroy();
    },
  };
}

/** Settings of the session every PostgreSQL connection of a store with a statement timeout opens with. */
function sessionTimeouts(statementTimeoutMs: number): string {
  // Sent as statements rather than as the connection's `options`, which a DATABASE_URL's own `options` replaces.
  return `set statement_timeout = ${statementTimeoutMs}; ` +
    `set idle_in_transaction_session_timeout = ${statementTimeoutMs}`;
}

function openPostgres(url: string, options: StoreOptions): Store {
  const timeouts = options.timeouts ?? {};
  const statementTimeoutMs = timeouts.statementMs ?? 0;
  const connectMs = timeouts.connectMs ?? 0;
  // Opening a connection is bounded by connectMs; waiting for one of a busy pool (which pg's pool bounds with the
  // same setting) a little longer: as long as a statement that hangs plus a connection opened after it, so a burst
  // of requests queues rather than being refused, and a request still gets its answer within 10 s.
  const connectingClient = class extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, ...(connectMs > 0 ? { connectionTimeoutMillis: connectMs } : {}) });
    }
  };
  const pool = new pg.Pool({
    Client: connectingClient,
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes(),
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    ...(connectMs > 0 ? { connectionTimeoutMillis: connectMs + statementTimeoutMs } : {}),
    ...(timeouts.idleMs !== undefined ? { idleTimeoutMillis: timeouts.idleMs } : {}),
    // A connection that stopped answering (a failover's) is given up a little after the server would have
    // cancelled a statement that merely ran long (statement_timeout), so the server's answer comes first.
    ...(statementTimeoutMs > 0 ? { query_timeout: statementTimeoutMs + SILENT_CONNECTION_GRACE_MS } : {}),
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  if (statementTimeoutMs > 0) {
    const settings = sessionTimeouts(statementTimeoutMs);
    // Queued before any statement of the connection's first user; a failure shows in that statement.
    pool.on('connect', (client) => void client.query(settings).catch(() => undefined));
  }
  const dialect = new CurrentSchemaPostgresDialect({ pool: preparingPool(pool, options.onUnavailable) });
  const db = new Kysely<Database>({ dialect });
  const commits = new CommitListeners();
  return {
    db,
    dialect: 'postgres',
    async write(job) {
      let asked = false;
      const value = await db.transaction().execute(async (trx) => {
        commits.begin(trx);
        const result = await job(trx);
        asked = commits.asked(trx);
        return result;
      });
      if (asked) commits.notify();
      return value;
    },
    afterCommit: (listener) => commits.add(listener),
    // Statements wait for the server without holding the event loop.
    read: (job) => job(),
    close: () => db.destroy(),
  };
}

export function openStore(url: string, options: StoreOptions = {}): Store {
  if (url.startsWith('sqlite:')) return openSqlite(url, options);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options);
  throw new Error('unsupported database URL: use sqlite:<path>, sqlite::memory: or postgres://…');
}
