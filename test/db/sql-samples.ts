/**
 * The repositories' queries, run with sample values on a Kysely instance that only records what it is asked to
 * run (no database): what test/db/sql-snapshots.test.ts writes to `sql/`.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
} from 'kysely';
import type { Database } from '../../src/db/types.ts';

export const SNAPSHOT_DIALECTS = ['sqlite', 'postgres'] as const;
export type SnapshotDialect = (typeof SNAPSHOT_DIALECTS)[number];

type Db = Kysely<Database>;

/** One call of a repository function with sample values. */
export interface Sample {
  readonly name: string;
  readonly run: (db: Db) => Promise<unknown>;
}

/** A repository module's samples, written to `sql/<file>.<dialect>.sql`. */
export interface SnapshotModule {
  readonly file: string;
  readonly samples: readonly Sample[];
}

function recordingDb(dialect: SnapshotDialect, queries: CompiledQuery[]): Db {
  const postgres = dialect === 'postgres';
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => {
      if (event.level === 'query') queries.push(event.query);
    },
  });
}

/** Every query the module's samples run on `dialect`, named statements by name only (their text is in named.*.sql). */
export async function capturedQueries(
  module: SnapshotModule,
  dialect: SnapshotDialect,
  named: Readonly<Record<string, string>>,
): Promise<string> {
  const names = new Map(Object.entries(named).map(([name, text]) => [text, name]));
  const parts: string[] = [];
  for (const sample of module.samples) {
    const queries: CompiledQuery[] = [];
    await sample.run(recordingDb(dialect, queries));
    const lines = [`-- ${sample.name}`];
    for (const query of queries) {
      const name = names.get(query.sql);
      lines.push(name === undefined ? `${query.sql};` : `-- named statement ${name} (named.${dialect}.sql)`);
      lines.push(`-- values: ${JSON.stringify(query.parameters)}`);
    }
    parts.push(`${lines.join('\n')}\n`);
  }
  return parts.join('\n');
}

/** The repositories whose queries are snapshotted, with their samples. */
export function snapshotSamples(): SnapshotModule[] {
  return [];
}
