import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/types.ts';

const TABLES = [
  'workspaces',
  'departments',
  'members',
  'staff',
  'inactivity_notices',
  'applications',
  'api_keys',
  'submissions',
  'application_forms',
  'commands',
  'events',
  'shifts',
  'idempotency_records',
] as const satisfies ReadonlyArray<keyof Database>;

export type DatabaseDump = Record<(typeof TABLES)[number], string[]>;

/** Every row of every table, each as JSON, sorted: two dumps are equal exactly when the contents are. */
export async function dumpDatabase(db: Kysely<Database>): Promise<DatabaseDump> {
  const dump = {} as DatabaseDump;
  for (const table of TABLES) {
    const rows = await db.selectFrom(table).selectAll().execute();
    dump[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return dump;
}
