/**
 * The machinery of test/db/sql-snapshots.test.ts: which modules of src/ run queries, their samples (the sibling
 * `<name>.samples.ts`, see src/db/samples.ts), and what the samples run on a Kysely instance that only records
 * what it is asked to run (no database), on either store.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { SqliteValueQueryCompiler } from '../../src/db/sqlite-dialect.ts';
import type { NoQuery, Sample, Variants } from '../../src/db/samples.ts';
import type { Store } from '../../src/db/store.ts';
import type { Database } from '../../src/db/types.ts';

export const SNAPSHOT_DIALECTS = ['sqlite', 'postgres'] as const;
export type SnapshotDialect = (typeof SNAPSHOT_DIALECTS)[number];

type Db = Kysely<Database>;
type Entry = Sample | Variants | NoQuery;

const SRC = new URL('../../src/', import.meta.url);

/**
 * What running a query looks like in a module: a Kysely query builder, a `sql` template run (`rowsOf`, the store's
 * helper, or `.execute`; a transaction's `.execute` runs none itself) or a compiled query. A module that only makes
 * fragments of SQL (a rule such as a live shift) runs none: the queries it is composed into show it. A comment
 * naming one counts too; a sample for it costs a line.
 */
const RUNS_QUERIES = /\.(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|executeQuery)\(|\b(rowsOf|writeTogether|writeThenRead)\(|(?<!transaction\(\))\.execute\(/;

/**
 * The modules whose queries are snapshotted, as paths under src/ without `.ts`: every `*repository*` module, and
 * every other module whose text runs queries. Under db/ (the store itself: connections, pragmas, savepoints,
 * checkpoints, migrations) only repositories.
 */
export function queryModules(): string[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.samples.ts') && !file.endsWith('.d.ts'))
    .sort();
  return files
    .filter((file) => {
      const repository = /repository[^/]*$/.test(file);
      if (file.startsWith('db/')) return repository;
      return repository || RUNS_QUERIES.test(readFileSync(new URL(file, SRC), 'utf8'));
    })
    .map((file) => file.slice(0, -'.ts'.length));
}

/** A module that runs queries, its exported functions and its samples (none when it has no samples file yet). */
export interface QueryModule {
  readonly path: string;
  readonly functions: readonly string[];
  readonly samples: Readonly<Record<string, Entry>> | undefined;
}

const isClass = (value: unknown) => typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));

export async function loadQueryModule(path: string): Promise<QueryModule> {
  const exports = (await import(new URL(`${path}.ts`, SRC).href)) as Record<string, unknown>;
  const functions = Object.keys(exports)
    .filter((name) => typeof exports[name] === 'function' && !isClass(exports[name]))
    .sort();
  const samplesUrl = new URL(`${path}.samples.ts`, SRC);
  if (!existsSync(samplesUrl)) return { path, functions, samples: undefined };
  const { samples } = (await import(samplesUrl.href)) as { samples?: Record<string, Entry> };
  return { path, functions, samples: samples ?? {} };
}

/** What is missing or left over in the modules' samples, each as a sentence saying what to do. */
export function sampleProblems(modules: readonly QueryModule[]): string[] {
  const problems: string[] = [];
  for (const { path, functions, samples } of modules) {
    const file = `src/${path}.samples.ts`;
    if (samples === undefined) {
      problems.push(
        `src/${path}.ts runs queries but has no samples: create ${file} exporting ` +
          `\`samples\` (satisfies Samples<typeof module>, src/db/samples.ts) with one entry per exported function: ` +
          functions.join(', '),
      );
      continue;
    }
    for (const name of functions) {
      if (!(name in samples)) {
        problems.push(
          `src/${path}.ts exports ${name} with no sample: add \`${name}: (db) => ${name}(db, …)\` to \`samples\` in ` +
            `${file} (or \`${name}: noQuery('why')\` if it runs no query)`,
        );
      }
    }
    for (const name of Object.keys(samples)) {
      if (!functions.includes(name)) problems.push(`${file} has a sample for ${name}, which src/${path}.ts does not export`);
    }
  }
  return problems;
}

/** A driver whose every query answers `row`. */
class AnsweringDriver extends DummyDriver {
  private readonly row: Readonly<Record<string, unknown>>;
  constructor(row: Readonly<Record<string, unknown>>) {
    super();
    this.row = row;
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    const rows = [this.row];
    return {
      executeQuery: async <R>() => ({ rows: rows as R[] }),
      // eslint-disable-next-line require-yield
      streamQuery: async function* () {
        return;
      },
    };
  }
}

/**
 * A Kysely instance of `dialect` (compiling as the store does) that records the queries it is asked to run into
 * `queries`, answering none, or `answer` to each.
 */
export function recordingDb(
  dialect: SnapshotDialect,
  queries: CompiledQuery[],
  answer?: Readonly<Record<string, unknown>>,
): Db {
  const postgres = dialect === 'postgres';
  const driver: Driver = answer === undefined ? new DummyDriver() : new AnsweringDriver(answer);
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => driver,
      createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteValueQueryCompiler()),
    },
    log: (event) => {
      if (event.level === 'query') queries.push(event.query);
    },
  });
}

/** A store on the recording Kysely instance: writes run in one of its (recorded) transactions. */
function storeOf(db: Db, dialect: SnapshotDialect): Store {
  return {
    db,
    dialect,
    write: (job) => db.transaction().execute(job),
    read: (job) => job(),
    afterCommit: () => undefined,
    close: () => db.destroy(),
  };
}

/** The samples in the order they are written, named `function` or `function (variant)`. */
function namedSamples(samples: Readonly<Record<string, Entry>>): Array<[string, Sample]> {
  return Object.entries(samples).flatMap(([name, entry]): Array<[string, Sample]> => {
    if (typeof entry === 'function') return [[name, entry]];
    if ('noQuery' in entry && typeof entry.noQuery === 'string') return [];
    return Object.entries(entry as Variants).map(([variant, sample]): [string, Sample] => [`${name} (${variant})`, sample]);
  });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The queries one sample runs on `dialect`. */
export async function sampleQueries(sample: Sample, dialect: SnapshotDialect): Promise<CompiledQuery[]> {
  const queries: CompiledQuery[] = [];
  const db = recordingDb(dialect, queries);
  await sample(db, storeOf(db, dialect));
  return queries;
}

/** Every sample of a module, named `function` or `function (variant)`, in the order they are written. */
export function moduleSamples(module: QueryModule): Array<[string, Sample]> {
  return module.samples === undefined ? [] : namedSamples(module.samples);
}

/** Every query the samples run on `dialect`. */
export async function capturedQueries(samples: Readonly<Record<string, Entry>>, dialect: SnapshotDialect): Promise<string> {
  const parts: string[] = [];
  for (const [name, sample] of namedSamples(samples)) {
    const lines = [`-- ${name}`];
    for (const query of await sampleQueries(sample, dialect)) {
      lines.push(`${query.sql};`);
      // Ids the code generates (time-ordered uuids) differ on every run: written as <uuid>.
      lines.push(`-- values: ${JSON.stringify(query.parameters).replace(UUID, '<uuid>')}`);
    }
    parts.push(`${lines.join('\n')}\n`);
  }
  return parts.join('\n');
}
