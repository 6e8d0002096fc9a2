import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PENDING_STATUS_LIST } from '../../src/db/sql/fragments.ts';
import { POSTGRES_STATEMENTS, SQLITE_STATEMENTS } from '../../src/db/sql/index.ts';
import { PENDING_STATUSES } from '../../src/features/applications/rules.ts';
import { capturedQueries, SNAPSHOT_DIALECTS, snapshotSamples, type SnapshotDialect } from './sql-samples.ts';

/**
 * What the database runs, as committed text: every named statement (src/db/sql/) and the queries of the
 * repositories, compiled for both stores with sample values, in `sql/` at the root of the repository. A change to
 * what the database runs shows in the diff. After such a change, `npm run sql:generate` rewrites the files.
 */
const UPDATE = process.env.SQL_SNAPSHOTS === 'update';
const ROOT = new URL('../../sql/', import.meta.url);

function matchesSnapshot(file: string, text: string): void {
  const url = new URL(file, ROOT);
  if (UPDATE) {
    writeFileSync(url, text);
    return;
  }
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(text, `sql/${file} differs from what the code runs: run \`npm run sql:generate\``).toBe(committed);
}

const NAMED: Record<SnapshotDialect, Readonly<Record<string, string>>> = {
  sqlite: SQLITE_STATEMENTS,
  postgres: POSTGRES_STATEMENTS,
};

function namedFile(statements: Readonly<Record<string, string>>): string {
  return Object.entries(statements)
    .map(([name, text]) => `-- ${name}\n${text.trim()};\n`)
    .join('\n');
}

/** How many values a statement's text takes: SQLite's `?` in order, PostgreSQL's highest `$n`. */
function valueCount(dialect: SnapshotDialect, text: string): number {
  if (dialect === 'sqlite') return (text.match(/\?/g) ?? []).length;
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
}

describe('SQL snapshots', () => {
  it.each(SNAPSHOT_DIALECTS)('the named statements (%s)', (dialect) => {
    matchesSnapshot(`named.${dialect}.sql`, namedFile(NAMED[dialect]));
  });

  it("the statements' list of statuses awaiting review is the applications' own", () => {
    expect(PENDING_STATUS_LIST).toBe(`(${PENDING_STATUSES.map((status) => `'${status}'`).join(', ')})`);
  });

  it('SQLite takes every value as +? (a bare ? can make it compile a kept statement again on every run)', () => {
    for (const [name, text] of Object.entries(SQLITE_STATEMENTS)) {
      expect({ name, bare: (text.match(/(?<!\+)\?/g) ?? []).length }).toEqual({ name, bare: 0 });
    }
  });

  it('a statement both stores have takes the same number of values on each', () => {
    for (const [name, text] of Object.entries(SQLITE_STATEMENTS)) {
      const other = (POSTGRES_STATEMENTS as Readonly<Record<string, string>>)[name];
      if (other === undefined) continue;
      expect({ name, values: valueCount('postgres', other) }).toEqual({ name, values: valueCount('sqlite', text) });
    }
  });

  it.each(snapshotSamples().flatMap((module) => SNAPSHOT_DIALECTS.map((dialect) => [module.file, dialect, module] as const)))(
    'the queries of %s (%s)',
    async (file, dialect, module) => {
      matchesSnapshot(`${file}.${dialect}.sql`, await capturedQueries(module, dialect, NAMED[dialect]));
    },
  );
});
