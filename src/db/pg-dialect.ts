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

function preparingClient(client: pg.PoolClient, names: StatementNames): PostgresPoolClient {
  async function run(text: string, values: unknown[]): Promise<pg.QueryResult> {
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
 * The pool Kysely is given: statements run as named prepared statements (see StatementNames), parsed and planned
 * once per connection instead of on every execution (for the heartbeat's statement, parsing and planning cost
 * PostgreSQL more than running it; a report's union of reads costs more to plan than to run).
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const names = new StatementNames();
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
