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
import { shapeName } from './sql/index.ts';

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

/**
 * The server-side names of a store's named statements (src/db/sql/postgres.ts), by text: the statement's name,
 * plus a generation bumped when a plan goes stale. One per store (see preparingPool).
 */
class StatementNames {
  private readonly byText: ReadonlyMap<string, string>;
  private generation = 0;
  constructor(statements: Readonly<Record<string, string>>) {
    this.byText = new Map(Object.entries(statements).map(([name, text]) => [text, name]));
  }

  /** The name to prepare `text` under, or undefined for SQL that is neither a named statement nor a shape (runShaped). */
  of(text: string): string | undefined {
    const name = this.byText.get(text) ?? shapeName(text);
    return name === undefined ? undefined : `${name}_${this.generation}`;
  }

  /** Every connection prepares the named statements again, under new names, from their next use on. */
  renew(): void {
    this.generation += 1;
  }
}

/** "cached plan must not change result type": a table the statement reads changed shape (a migration elsewhere). */
function isStalePlan(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '0A000';
}

function preparingClient(client: pg.PoolClient, names: StatementNames): PostgresPoolClient {
  async function run(text: string, values: unknown[]): Promise<pg.QueryResult> {
    const name = names.of(text);
    if (name === undefined) return client.query(text, values);
    try {
      return await client.query({ name, text, values });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      names.renew();
      return client.query(text, values);
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
  return { query, release: () => client.release() };
}

/**
 * The pool Kysely is given: the named statements (src/db/sql/postgres.ts) run as named prepared statements,
 * parsed and planned once per connection instead of on every execution (for the heartbeat's statement, parsing
 * and planning cost PostgreSQL more than running it); so do the query shapes of `runShaped` (src/db/sql/index.ts).
 * Other SQL stays unnamed.
 */
export function preparingPool(pool: pg.Pool, statements: Readonly<Record<string, string>>): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const names = new StatementNames(statements);
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = preparingClient(client, names);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
