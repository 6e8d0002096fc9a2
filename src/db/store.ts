import type { Kysely, Transaction } from 'kysely';
import type { Database, Dialect } from './types.ts';

/** A write that runs in a transaction (its own, or a savepoint of a shared one) and resolves once durable. */
export type WriteJob<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * The database, and the only way into its writer. Reads run on `db`; every write that must be durable and
 * transactional runs through `write`, which on each store commits it the way that store commits best:
 * - SQLite (one writer): jobs arriving together are group-committed, one transaction for many, each job in a
 *   savepoint of its own (a failing one is undone alone), all answered once the shared commit is on disk;
 * - PostgreSQL (many connections, many instances): each job is a transaction of its own.
 */
export interface Store {
  readonly db: Kysely<Database>;
  /** Which SQL the store speaks (for the modules below the features: migrations, idempotency strategies). */
  readonly dialect: Dialect;
  /** Runs `job` in a transaction and resolves with its value once committed durably; rejects (nothing kept) if it throws. */
  write<T>(job: WriteJob<T>): Promise<T>;
  /**
   * Runs a read (queries on `db`, no transaction) that may take a while. On SQLite, whose statements hold the
   * event loop, in a turn whose read budget is not spent yet (src/db/read-turns.ts); on PostgreSQL at once.
   */
  read<T>(job: () => Promise<T>): Promise<T>;
  /**
   * Calls `listener` after each durable commit of writes that asked for it (`notifyAfterCommit`, connect.ts):
   * PostgreSQL after the write's COMMIT, SQLite after the shared commit of its group. E.g. the webhook dispatcher listens,
   * so that deliveries a write enqueued go out at once rather than at the next poll of the outbox. A write whose
   * asking part an inner savepoint undid (a refusal stored in its place) still counts: a listener must take a
   * call for nothing in its stride, as the dispatcher's nudge does (it claims, and finds nothing new).
   */
  afterCommit(listener: () => void): void;
  close(): Promise<void>;
}
