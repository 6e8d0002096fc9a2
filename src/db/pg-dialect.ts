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
import { sha256Hex } from '../ids.js';
import { isFixedStatement } from './prepared.js';

/**
 * Looks only at the connection's current schema. Kysely's stock PostgreSQL introspector reads every column of every
 * table in the database and calls catalog functions on each; when other schemas are created or dropped at the same
 * moment (other gateways or test runs sharing the database) those calls fail with "relation does not exist". The
 * migrator only needs to know whether its two bookkeeping tables exist, which this answers from pg_tables.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

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

/** The server-side name of a fixed statement: its text's hash, plus a generation bumped when a plan goes stale. */
const statementNames = new Map<string, string>();
let generation = 0;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `wsg_${generation}_${sha256Hex(text).slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** "cached plan must not change result type": a table the statement reads changed shape (a migration elsewhere). */
function isStalePlan(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '0A000';
}

function preparingClient(client: pg.PoolClient): PostgresPoolClient {
  async function run(text: string, values: unknown[]): Promise<pg.QueryResult> {
    if (!isFixedStatement(text)) return client.query(text, values);
    try {
      return await client.query({ name: statementName(text), text, values });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      // Every connection prepares the statement again, under a new name, from its next use on.
      generation += 1;
      statementNames.delete(text);
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
 * The pool Kysely is given: statements built once (src/db/prepared.ts) run as named prepared statements, parsed
 * and planned once per connection instead of on every execution (for the heartbeat's statement, parsing and
 * planning cost PostgreSQL more than running it). Other SQL (built per call, of many shapes) stays unnamed.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = preparingClient(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
