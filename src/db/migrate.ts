import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Store } from './connect.ts';
import * as initial from './migrations/20261121_0001_initial.ts';
import * as activityVersion from './migrations/20261121_0002_activity_version.ts';
import * as heartbeatHotUpdates from './migrations/20261122_0003_heartbeat_hot_updates.ts';
import * as activityTotals from './migrations/20261124_0004_activity_totals.ts';
import * as webhooks from './migrations/20261124_0005_webhooks.ts';
import * as activityChanges from './migrations/20261125_0006_activity_changes.ts';
import * as completedIdempotencyRecords from './migrations/20261126_0007_completed_idempotency_records.ts';
import * as applicationForms from './migrations/20261127_0008_application_forms.ts';
import * as inactivityNoticeRequests from './migrations/20261128_0009_inactivity_notice_requests.ts';
import * as gatewaySigningKey from './migrations/20261129_0010_gateway_signing_key.ts';
import * as retentionIndexes from './migrations/20261129_0011_retention_indexes.ts';
import * as consoleSignIn from './migrations/20261129_0012_console_sign_in.ts';
import * as noticeIndexes from './migrations/20261129_0013_notice_indexes.ts';
import * as noticeOverlapIndex from './migrations/20261129_0014_notice_overlap_index.ts';
import * as journalEventIndex from './migrations/20261129_0015_journal_event_index.ts';
import * as discord from './migrations/20261206_0016_discord.ts';
import * as ranks from './migrations/20261206_0017_ranks.ts';
import * as staffRosterIndex from './migrations/20261206_0018_staff_roster_index.ts';
import * as robloxCallWindows from './migrations/20261207_0019_roblox_call_windows.ts';

/** Migrations are listed here, in order, so they resolve the same from source and from the build. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121_0001_initial': initial,
  '20261121_0002_activity_version': activityVersion,
  '20261122_0003_heartbeat_hot_updates': heartbeatHotUpdates,
  '20261124_0004_activity_totals': activityTotals,
  '20261124_0005_webhooks': webhooks,
  '20261125_0006_activity_changes': activityChanges,
  '20261126_0007_completed_idempotency_records': completedIdempotencyRecords,
  '20261127_0008_application_forms': applicationForms,
  '20261128_0009_inactivity_notice_requests': inactivityNoticeRequests,
  '20261129_0010_gateway_signing_key': gatewaySigningKey,
  '20261129_0011_retention_indexes': retentionIndexes,
  '20261129_0012_console_sign_in': consoleSignIn,
  '20261129_0013_notice_indexes': noticeIndexes,
  '20261129_0014_notice_overlap_index': noticeOverlapIndex,
  '20261129_0015_journal_event_index': journalEventIndex,
  '20261206_0016_discord': discord,
  '20261206_0017_ranks': ranks,
  '20261206_0018_staff_roster_index': staffRosterIndex,
  '20261207_0019_roblox_call_windows': robloxCallWindows,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};

/** The migration that creates the activity totals: a store that held shifts before it needs them built. */
export const ACTIVITY_TOTALS_MIGRATION = '20261124_0004_activity_totals';

export interface MigrateResult {
  readonly applied: string[];
}

/** The migrator of this store. */
export async function migratorFor({ db, dialect }: Pick<Store, 'db' | 'dialect'>): Promise<Migrator> {
  // On PostgreSQL the bookkeeping tables live in the connection's current schema, so one database can hold
  // several independent gateways (or test schemas) without their migration records meeting.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  return new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

/**
 * Names of the migrations this build knows that the store has not applied, in order. Cheap enough for a readiness
 * probe: two small queries (Kysely's own status check introspects every table the connection can see).
 */
export async function pendingMigrations({ db, dialect }: Pick<Store, 'db' | 'dialect'>): Promise<string[]> {
  const present =
    dialect === 'postgres'
      ? (await sql<{ present: boolean }>`select to_regclass(${DEFAULT_MIGRATION_TABLE}) is not null as present`.execute(db))
          .rows[0]?.present === true
      : (
          await sql<{ n: number }>`select count(*) as n from sqlite_master
            where type = 'table' and name = ${DEFAULT_MIGRATION_TABLE}`.execute(db)
        ).rows[0]?.n === 1;
  const applied = present
    ? new Set(
        (await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db)).rows.map(
          (row) => row.name,
        ),
      )
    : new Set<string>();
  return Object.keys(MIGRATIONS).filter((name) => !applied.has(name));
}

/** Applies pending migrations; safe when several instances start at once (Kysely takes a migration lock). */
export async function migrateToLatest(store: Pick<Store, 'db' | 'dialect'>): Promise<MigrateResult> {
  const migrator = await migratorFor(store);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
  }
  const failed = results?.find((r) => r.status === 'Error');
  if (failed) throw new Error(`migration ${failed.migrationName} failed`);
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

export interface MigrationStatus {
  readonly applied: ReadonlyArray<{ readonly name: string; readonly appliedAt: string }>;
  readonly pending: ReadonlyArray<{ readonly name: string }>;
}

/** Which migrations this build knows the store has applied (with when) and which it has not; changes nothing. */
export async function migrationStatus(store: Pick<Store, 'db' | 'dialect'>): Promise<MigrationStatus> {
  const migrations = await (await migratorFor(store)).getMigrations();
  const applied: Array<{ name: string; appliedAt: string }> = [];
  const pending: Array<{ name: string }> = [];
  for (const { name, executedAt } of migrations) {
    if (executedAt === undefined) pending.push({ name });
    else applied.push({ name, appliedAt: executedAt.toISOString() });
  }
  return { applied, pending };
}
