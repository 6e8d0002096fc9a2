import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Store } from './connect.js';
import * as initial from './migrations/20261121_0001_initial.js';
import * as activityVersion from './migrations/20261121_0002_activity_version.js';
import * as heartbeatHotUpdates from './migrations/20261122_0003_heartbeat_hot_updates.js';

/** Migrations are listed here, in order, so they resolve the same from source and from the build. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121_0001_initial': initial,
  '20261121_0002_activity_version': activityVersion,
  '20261122_0003_heartbeat_hot_updates': heartbeatHotUpdates,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};

export interface MigrateResult {
  readonly applied: string[];
}

/** Applies pending migrations; safe when several instances start at once (Kysely takes a migration lock). */
export async function migrateToLatest({ db, dialect }: Pick<Store, 'db' | 'dialect'>): Promise<MigrateResult> {
  // On PostgreSQL the bookkeeping tables live in the connection's current schema, so one database can hold
  // several independent gateways (or test schemas) without their migration records meeting.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
  }
  const failed = results?.find((r) => r.status === 'Error');
  if (failed) throw new Error(`migration ${failed.migrationName} failed`);
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
