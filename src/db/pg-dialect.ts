import { createHash } from 'node:crypto';
import {
  PostgresDialect,
  sql,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
import type pg from 'pg';
import { breaksConnection, DatabaseUnavailable, unavailability, type DatabaseErrorKind } from './unavailable.ts';

/**
 * Looks only at the connection's current schema. Kysely's stock PostgreSQL introspector reads every column of every
 * table in the database and calls catalog functions on each; when other schemas are created or dropped at the same
 * moment (other gateways or test runs sharing the database) those calls fail with "relation does not exist". The
 * migrator only needs to know whether its two bookkeeping tables exist, which this answers from pg_tables.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  private readonly db: Kysely<unknown>;
  constructor(db: Kysely<unknown>) {
    this.db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows.map((r) => ({ name: r.name }));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ schema: string; name: string }>`
      select schemaname as schema, tablename as name from pg_catalog.pg_tables where schemaname = current_schema()
    `.execute(this.db);
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: false, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** PostgresDialect whose introspection stays inside the current schema. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

/** The most distinct statement texts a store prepares by name; beyond them, new texts run unnamed. */
export const MAX_NAMED_TEXTS = 256;

/**
 * Statements a store names: those with values, and reads. The rest (DDL, transaction control, a migration's
 * script) run once or cost nothing to plan, and a script of several statements cannot be prepared at all.
 */
function isNamed(text: string, values: readonly unknown[]): boolean {
  return values.length > 0 || /^\s*select\b/i.test(text);
}

/**
 * The server-side names of a store's statements, derived from their text (a digest), plus a generation bumped
 * when a plan goes stale: the same text has the same name on every connection of the store. One per store (see
 * preparingPool), at most MAX_NAMED_TEXTS texts.
 */
class StatementNames {
  private readonly byText = new Map<string, string>();
  private generation = 0;

  /** The name to prepare `text` under, or undefined for SQL that runs unnamed. */
  of(text: string, values: readonly unknown[]): string | undefined {
    let name = this.byText.get(text);
    if (name === undefined) {
      if (this.byText.size >= MAX_NAMED_TEXTS || !isNamed(text, values)) return undefined;
      name = `s${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
      this.byText.set(text, name);
    }
    return `${name}_${this.generation}`;
  }

  /** Every connection prepares the statements again, under new names, from their next use on. */
  renew(): void {
    this.generation += 1;
  }
}

/** "cached plan must not change result type": a table the statement reads changed shape (a migration elsewhere). */
function isStalePlan(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '0A000';
}

/** Reports a failure of the database once: the store's owner logs and counts it (StoreOptions.onUnavailable). */
export type UnavailabilityReport = (kind: DatabaseErrorKind, error: unknown) => void;

/** A pooled connection as the store sees it: its wrapper, when it was opened, and why it is broken, if it is. */
interface PooledConnection {
  readonly serial: number;
  wrapped?: PostgresPoolClient;
  broken: DatabaseUnavailable | null;
}

/**
 * The store's view of its pool's connections. A connection that broke (reset, silent, timed out) is never used
 * again: further statements on it fail at once, and it is discarded when given back, not kept. Since connections
 * opened before such a failure likely share its fate (a failover leaves every one of them silent), each of them is
 * discarded when next taken from the pool instead of being tried.
 */
class Connections {
  private readonly byClient = new WeakMap<pg.PoolClient, PooledConnection>();
  private opened = 0;
  /** Connections opened before this serial are discarded when next taken. */
  private trustedFrom = 0;
  private readonly report: UnavailabilityReport;

  constructor(report: UnavailabilityReport) {
    this.report = report;
  }

  /** A connection the pool has just opened; an error it emits from now on marks it broken, reported once. */
  track(client: pg.Client): void {
    const connection: PooledConnection = { serial: this.opened++, broken: null };
    this.byClient.set(client as pg.PoolClient, connection);
    client.on('error', (error: Error) => this.fail(connection, error));
  }

  of(client: pg.PoolClient): PooledConnection {
    let connection = this.byClient.get(client);
    if (!connection) {
      connection = { serial: this.opened++, broken: null };
      this.byClient.set(client, connection);
    }
    return connection;
  }

  /** Whether a connection taken from the pool predates a failure (it is discarded instead). */
  isStale(connection: PooledConnection): boolean {
    return connection.serial < this.trustedFrom;
  }

  /**
   * Records a failure met on `connection` (a statement's, or the connection's own error event) and returns it as
   * DatabaseUnavailable, or returns null when it is an answer about the statement.
   */
  fail(connection: PooledConnection, error: unknown, committing = false): DatabaseUnavailable | null {
    const kind = unavailability(error);
    if (kind === null) return null;
    const unavailable = error instanceof DatabaseUnavailable ? error : new DatabaseUnavailable(kind, error, committing);
    if (!breaksConnection(error, kind)) {
      this.report(kind, error);
      return unavailable;
    }
    if (connection.broken === null) {
      connection.broken = unavailable;
      this.trustedFrom = this.opened;
      this.report(kind, error);
    }
    return unavailable;
  }

  /** A connection could not be opened or taken from the pool. */
  failToConnect(error: unknown): DatabaseUnavailable {
    const unavailable = new DatabaseUnavailable(unavailability(error) ?? 'connect', error);
    this.report(unavailable.kind, error);
    return unavailable;
  }
}

function preparingClient(
  client: pg.PoolClient,
  names: StatementNames,
  connection: PooledConnection,
  connections: Connections,
): PostgresPoolClient {
  async function send(text: string, values: unknown[]): Promise<pg.QueryResult> {
    const name = names.of(text, values);
    if (name === undefined) return client.query(text, values);
    try {
      return await client.query({ name, text, values });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      names.renew();
      return client.query(text, values);
    }
  }
  async function run(text: string, values: unknown[]): Promise<pg.QueryResult> {
    // A broken connection answers nothing more (a rollback after its failure would wait for a timeout in vain).
    if (connection.broken) throw connection.broken;
    try {
      return await send(text, values);
    } catch (error) {
      throw connections.fail(connection, error, /^\s*commit\b/i.test(text)) ?? error;
    }
  }
  function query<R>(sqlText: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    first: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof first !== 'string') return client.query(first as never) as PostgresCursor<R>;
    return run(first, [...(parameters ?? [])]) as unknown as Promise<PostgresQueryResult<R>>;
  }
  // A broken connection is destroyed by the pool rather than kept for the next statement.
  return { query, release: () => client.release(connection.broken ?? undefined) };
}

/** How many connections opened before a failure one checkout discards before it opens a fresh one. */
const MAX_STALE_DISCARDS = 100;

/**
 * The pool Kysely is given: statements run as named prepared statements (see StatementNames), parsed and planned
 * once per connection instead of on every execution (for the heartbeat's statement, parsing and planning cost
 * PostgreSQL more than running it; a report's union of reads costs more to plan than to run). A failure that
 * means the database is unreachable is thrown as DatabaseUnavailable, reported once, and its connection discarded
 * (see Connections).
 */
export function preparingPool(pool: pg.Pool, report: UnavailabilityReport = () => undefined): PostgresPool {
  const names = new StatementNames();
  const connections = new Connections(report);
  pool.on('connect', (client) => connections.track(client));
  // An idle connection's error reaches the listener above too: the pool removes the connection itself.
  pool.on('error', () => undefined);
  return {
    async connect() {
      for (let discarded = 0; ; discarded += 1) {
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (error) {
          throw connections.failToConnect(error);
        }
        const connection = connections.of(client);
        if (connection.broken !== null || (connections.isStale(connection) && discarded < MAX_STALE_DISCARDS)) {
          client.release(true);
          continue;
        }
        connection.wrapped ??= preparingClient(client, names, connection, connections);
        return connection.wrapped;
      }
    },
    end: () => pool.end(),
  };
}
