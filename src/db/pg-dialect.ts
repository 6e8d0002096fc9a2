import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

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
