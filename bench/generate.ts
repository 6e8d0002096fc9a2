/**
 * Writes a dataset plan into a freshly migrated database: the configuration through applyProvisioning (keys
 * imported with their known secrets), then the shift history bulk-inserted with Kysely, one transaction per
 * chunk, then the big workspace's submissions and their review history (applications-data.ts). SQLite takes multi-row INSERTs; PostgreSQL one INSERT … SELECT FROM unnest(…) per chunk.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database, Dialect, ShiftTable } from '../src/db/types.ts';
import { rebuildTotals } from '../src/features/activity/totals/service.ts';
import { applyProvisioning } from '../src/provisioning/apply.ts';
import { insertApplications } from './applications-data.ts';
import type { DatasetPlan } from './plan.ts';
import { shiftRows } from './shifts.ts';

/** Rows per transaction. */
const CHUNK = 10_000;
/** Rows per multi-row INSERT on SQLite: 15 columns × 1000 = 15,000 parameters, under SQLite's 32,766. */
const SQLITE_ROWS_PER_STATEMENT = 1000;

const COLUMNS = [
  'id',
  'workspace_id',
  'application_id',
  'environment',
  'staff_id',
  'universe_id',
  'place_id',
  'server_id',
  'status',
  'started_at',
  'last_heartbeat_at',
  'last_seen_at',
  'ended_at',
  'end_reason',
  'created_at',
] as const satisfies ReadonlyArray<keyof ShiftTable>;

const PG_TYPES: Record<(typeof COLUMNS)[number], string> = {
  id: 'text',
  workspace_id: 'text',
  application_id: 'text',
  environment: 'text',
  staff_id: 'text',
  universe_id: 'text',
  place_id: 'text',
  server_id: 'text',
  status: 'text',
  started_at: 'bigint',
  last_heartbeat_at: 'bigint',
  last_seen_at: 'bigint',
  ended_at: 'bigint',
  end_reason: 'text',
  created_at: 'bigint',
};

/**
 * The secondary indexes of the shifts table as the migrations created them (their DDL read back from the
 * catalog), so the bulk load can drop them and build each once at the end: much faster than maintaining five
 * indexes row by row, and the schema ends exactly as migrated.
 */
async function shiftIndexes(db: Kysely<Database>, dialect: Dialect): Promise<Array<{ name: string; ddl: string }>> {
  if (dialect === 'sqlite') {
    const rows = await sql<{ name: string; ddl: string }>`
      select name, sql as ddl from sqlite_master where type = 'index' and tbl_name = 'shifts' and sql is not null`.execute(db);
    return rows.rows;
  }
  const rows = await sql<{ name: string; ddl: string }>`
    select i.indexname as name, i.indexdef as ddl from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = 'shifts'
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = to_regnamespace(i.schemaname))`.execute(db);
  return rows.rows;
}

export interface GenerationStats {
  readonly seconds: number;
  readonly provisioningSeconds: number;
  readonly shiftSeconds: number;
  readonly shifts: number;
  readonly staff: number;
  readonly workspaces: number;
}

/** The same statement text for every full batch: built once per row count. */
function sqliteInsert(rows: number): string {
  const tuple = `(${COLUMNS.map(() => '?').join(', ')})`;
  return `insert into shifts (${COLUMNS.join(', ')}) values ${Array.from({ length: rows }, () => tuple).join(', ')}`;
}

function postgresInsert(): string {
  const arrays = COLUMNS.map((column, i) => `$${i + 1}::${PG_TYPES[column]}[]`).join(', ');
  return `insert into shifts (${COLUMNS.join(', ')}) select * from unnest(${arrays})`;
}

function insertChunk(db: Kysely<Database>, dialect: Dialect, rows: readonly ShiftTable[], statements: Map<number, string>) {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      const columns = COLUMNS.map((column) => rows.map((row) => row[column]));
      await trx.executeQuery(CompiledQuery.raw(postgresInsert(), columns));
      return;
    }
    for (let i = 0; i < rows.length; i += SQLITE_ROWS_PER_STATEMENT) {
      const part = rows.slice(i, i + SQLITE_ROWS_PER_STATEMENT);
      let text = statements.get(part.length);
      if (text === undefined) {
        text = sqliteInsert(part.length);
        statements.set(part.length, text);
      }
      const parameters = part.flatMap((row) => COLUMNS.map((column) => row[column]));
      await trx.executeQuery(CompiledQuery.raw(text, parameters));
    }
  });
}

export async function generateDataset(
  db: Kysely<Database>,
  dialect: Dialect,
  plan: DatasetPlan,
  log: (message: string) => void,
): Promise<GenerationStats> {
  const started = performance.now();
  if (dialect === 'sqlite') {
    // A throw-away bulk load (a failed one is deleted): no journal and no fsync per chunk, and a page cache that
    // holds the whole file, since the random-uuid primary key scatters inserts. WAL is restored at the end.
    await sql`pragma journal_mode = off`.execute(db);
    await sql`pragma synchronous = off`.execute(db);
    await sql`pragma cache_size = -1048576`.execute(db);
  }
  await applyProvisioning(db, plan.document, { now: () => plan.now });
  const provisioned = performance.now();
  log(`provisioned ${plan.document.workspaces.length} workspaces in ${((provisioned - started) / 1000).toFixed(1)} s`);

  const indexes = await shiftIndexes(db, dialect);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);

  const statements = new Map<number, string>();
  const workspaces = [plan.big, ...plan.small];
  let inserted = 0;
  let lastLog = performance.now();
  for (const [index, workspace] of workspaces.entries()) {
    const rows = shiftRows(workspace, {
      now: plan.now,
      historyDays: plan.profile.historyDays,
      seed: plan.seed + 1000 + index,
      chunk: CHUNK,
    });
    for (const chunk of rows) {
      await insertChunk(db, dialect, chunk, statements);
      inserted += chunk.length;
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        log(`  ${inserted.toLocaleString('en-US')} shifts inserted`);
      }
    }
  }
  const loaded = performance.now();
  for (const index of indexes) await sql.raw(index.ddl).execute(db);
  log(`built ${indexes.length} shift indexes in ${((performance.now() - loaded) / 1000).toFixed(1)} s`);
  const applicationsStarted = performance.now();
  const applications = await insertApplications(db, plan.big, plan.seed + 500);
  log(
    `inserted ${applications.submissions.toLocaleString('en-US')} submissions and ${applications.commands.toLocaleString('en-US')} ` +
      `review commands in ${((performance.now() - applicationsStarted) / 1000).toFixed(1)} s`,
  );
  const totalsStarted = performance.now();
  // Without statistics PostgreSQL takes the shifts table for a small one and reads the whole workspace's completed
  // shifts (index shifts_completed_workspace) for every chunk of staff the rebuild reads: minutes instead of seconds.
  if (dialect === 'postgres') await sql`analyze shifts, staff`.execute(db);
  await rebuildTotals({ db, write: (job) => db.transaction().execute(job) });
  log(`built the activity totals in ${((performance.now() - totalsStarted) / 1000).toFixed(1)} s`);
  if (dialect === 'postgres') {
    // What autovacuum does soon after a bulk insert: statistics for the planner, and the visibility map that
    // lets the report queries use index-only scans.
    // Named tables only: a bare VACUUM would visit every schema of the shared database.
    // Only an aid to the planner: a failure is reported and the run goes on (autovacuum catches up).
    try {
      await sql`vacuum analyze shifts, activity_totals, staff, departments, inactivity_notices, workspaces, applications, api_keys, submissions, commands, events, application_forms`.execute(db);
    } catch (error) {
      log(`WARNING: vacuum analyze failed (${error instanceof Error ? error.message : String(error)}); measuring without it`);
    }
  } else {
    await sql`pragma journal_mode = wal`.execute(db);
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
  }
  const finished = performance.now();
  const staff = workspaces.reduce((sum, w) => sum + w.staff.length, 0);
  log(
    `inserted ${inserted.toLocaleString('en-US')} shifts in ${((loaded - provisioned) / 1000).toFixed(1)} s ` +
      `(${Math.round(inserted / ((loaded - provisioned) / 1000)).toLocaleString('en-US')} rows/s)`,
  );
  return {
    seconds: (finished - started) / 1000,
    provisioningSeconds: (provisioned - started) / 1000,
    shiftSeconds: (finished - provisioned) / 1000,
    shifts: inserted,
    staff,
    workspaces: workspaces.length,
  };
}
