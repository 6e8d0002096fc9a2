import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The roster's order (`GET /v1/staff`): a workspace's staff by display name then id, both by code points. With this
 * index a page is read in order and stops after its last row, instead of sorting the workspace's every staff
 * member. PostgreSQL compares the columns under the `"C"` collation, as the roster's query does
 * (`byCodePoints`, db/dialect.ts), so the index serves that order; SQLite's default collation is already bytes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const columns = postgres ? sql.raw('workspace_id, display_name collate "C", id collate "C"') : sql.raw('workspace_id, display_name, id');
  await sql`create index staff_roster on staff (${columns})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('staff_roster').execute();
}
