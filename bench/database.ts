/**
 * A database holding the dataset, private to one run.
 * - SQLite: a file in the run directory. Full-size data is generated once into bench/.cache (keyed by the
 *   generator version, the profile and the seed, and regenerated when older than CACHE_MAX_AGE_DAYS so "this week"
 *   still has history) and copied for each run, since the run writes to it.
 * - PostgreSQL: a fresh schema in the given database (search_path via the URL's `options`), dropped afterwards.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { openStore, type Store } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { generateDataset, type GenerationStats } from './generate.ts';
import { CACHE_DIR } from './paths.ts';
import { buildPlan, type DatasetPlan } from './plan.ts';
import { DATASET_SEED, GENERATOR_VERSION, type Profile } from './profiles.ts';

const CACHE_MAX_AGE_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PreparedDatabase {
  /** DATABASE_URL for the server. */
  readonly url: string;
  readonly plan: DatasetPlan;
  readonly generation: GenerationStats & { readonly cached: boolean };
  /** Store engine version, for the machine description. */
  readonly engineVersion: string;
  drop(): Promise<void>;
}

interface CacheMeta {
  readonly version: number;
  readonly profile: string;
  readonly seed: number;
  readonly now: number;
  readonly generation: GenerationStats;
}

type Log = (message: string) => void;

async function generateInto(store: Store, profile: Profile, now: number, log: Log) {
  await migrateToLatest(store);
  const plan = buildPlan(profile, now);
  const generation = await generateDataset(store.db, store.dialect, plan, log);
  return { plan, generation };
}

async function sqliteVersion(url: string): Promise<string> {
  const store = openStore(url);
  try {
    const row = await sql<{ v: string }>`select sqlite_version() as v`.execute(store.db);
    return `SQLite ${row.rows[0]?.v ?? '?'}`;
  } finally {
    await store.close();
  }
}

function removeSqliteFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

export async function prepareSqlite(
  profile: Profile,
  runDir: string,
  options: { readonly fresh: boolean },
  log: Log,
): Promise<PreparedDatabase> {
  const path = join(runDir, 'gateway.db');
  const url = `sqlite:${path}`;
  const drop = async () => removeSqliteFiles(path);

  if (!profile.cacheSqlite) {
    const store = openStore(url);
    try {
      const { plan, generation } = await generateInto(store, profile, Date.now(), log);
      return { url, plan, generation: { ...generation, cached: false }, engineVersion: await sqliteVersion(url), drop };
    } finally {
      await store.close();
    }
  }

  const base = join(CACHE_DIR, `sqlite-${profile.name}-v${GENERATOR_VERSION}-seed${DATASET_SEED}`);
  const cachedDb = `${base}.db`;
  const metaPath = `${base}.json`;
  let meta: CacheMeta | undefined;
  if (!options.fresh && existsSync(cachedDb) && existsSync(metaPath)) {
    const candidate = JSON.parse(readFileSync(metaPath, 'utf8')) as CacheMeta;
    const ageDays = (Date.now() - candidate.now) / DAY_MS;
    if (candidate.version === GENERATOR_VERSION && ageDays < CACHE_MAX_AGE_DAYS) {
      meta = candidate;
      log(`using the cached dataset ${cachedDb} (generated ${ageDays.toFixed(1)} days ago)`);
    } else {
      log(`the cached dataset is ${ageDays.toFixed(1)} days old: generating a new one`);
    }
  }
  const cached = meta !== undefined;
  if (!meta) {
    mkdirSync(dirname(cachedDb), { recursive: true });
    const partial = `${base}.partial.db`;
    removeSqliteFiles(partial);
    const store = openStore(`sqlite:${partial}`);
    let result: Awaited<ReturnType<typeof generateInto>>;
    try {
      result = await generateInto(store, profile, Date.now(), log);
    } finally {
      await store.close();
    }
    removeSqliteFiles(cachedDb);
    renameSync(partial, cachedDb);
    removeSqliteFiles(partial);
    meta = {
      version: GENERATOR_VERSION,
      profile: profile.name,
      seed: DATASET_SEED,
      now: result.plan.now,
      generation: result.generation,
    };
    writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`);
  }
  const copyStarted = performance.now();
  copyFileSync(cachedDb, path);
  log(`copied the dataset for this run in ${((performance.now() - copyStarted) / 1000).toFixed(1)} s`);
  return {
    url,
    plan: buildPlan(profile, meta.now, meta.seed),
    generation: { ...meta.generation, cached },
    engineVersion: await sqliteVersion(url),
    drop,
  };
}

/** The application name of the benchmark's sessions (the gateway's included), to tell them from others'. */
export const BENCH_APPLICATION_NAME = 'wsg-bench';

/** Connection URL whose sessions use `schema` as their search path and name themselves the benchmark's. */
function urlWithSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  parsed.searchParams.set('application_name', BENCH_APPLICATION_NAME);
  return parsed.toString();
}

async function adminQuery(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

export async function postgresAnswers(url: string): Promise<boolean> {
  try {
    await adminQuery(url, 'select 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * When PostgreSQL does not answer at the run's URL: `skip` (said as a warning) when the store was left to its
 * default outside CI, else `fail`; null when it answers.
 */
export async function missingPostgres(
  options: { readonly postgresUrl: string; readonly storesDefaulted: boolean },
  log: (line: string) => void,
): Promise<'skip' | 'fail' | null> {
  if (await postgresAnswers(options.postgresUrl)) return null;
  const where = options.postgresUrl.replace(/\/\/[^@/]*@/, '//…@');
  if (options.storesDefaulted && process.env.CI !== 'true') {
    log(`WARNING: PostgreSQL does not answer at ${where}; the PostgreSQL run is skipped`);
    return 'skip';
  }
  log(`PostgreSQL does not answer at ${where}`);
  return 'fail';
}

export async function preparePostgres(
  profile: Profile,
  baseUrl: string,
  runTag: string,
  log: Log,
): Promise<PreparedDatabase> {
  const schema = `wsg_bench_${runTag.toLowerCase().replace(/[^a-z0-9]/g, '_')}`;
  await adminQuery(baseUrl, `create schema ${schema}`);
  const drop = async () => {
    await adminQuery(baseUrl, `drop schema if exists ${schema} cascade`);
  };
  const url = urlWithSchema(baseUrl, schema);
  try {
    const store = openStore(url);
    let result: Awaited<ReturnType<typeof generateInto>>;
    try {
      result = await generateInto(store, profile, Date.now(), log);
    } finally {
      await store.close();
    }
    const version = await adminQuery(baseUrl, 'show server_version');
    const row = version.rows[0] as { server_version?: string } | undefined;
    // Without autovacuum the statistics stay those of the generation: tables a scenario grows are planned as
    // they were before it (the outbox's statements do not depend on them; others may).
    const vacuum = await adminQuery(baseUrl, 'show autovacuum');
    const autovacuum = (vacuum.rows[0] as { autovacuum?: string } | undefined)?.autovacuum ?? '?';
    if (autovacuum !== 'on') log(`PostgreSQL runs with autovacuum ${autovacuum}: statistics stay those of the dataset's generation`);
    log(`PostgreSQL schema ${schema}`);
    return {
      url,
      plan: result.plan,
      generation: { ...result.generation, cached: false },
      engineVersion: `PostgreSQL ${row?.server_version ?? '?'} (autovacuum ${autovacuum})`,
      drop,
    };
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
}
