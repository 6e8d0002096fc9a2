import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { noQuery } from '../../src/db/samples.ts';
import {
  capturedQueries,
  loadQueryModule,
  moduleSamples,
  queryModules,
  sampleQueries,
  sampleProblems,
  SNAPSHOT_DIALECTS,
} from './sql-samples.ts';

/**
 * What the database runs, as committed text: the queries of every module
 * that runs them (each exported function called by its sample, `<module>.samples.ts` beside it), compiled for
 * both stores with sample values, in `sql/` at the root of the repository: `sql/<module path under src/>.<dialect>.sql`.
 * A change to what the database runs shows in the diff. After such a change, `npm run sql:generate` rewrites the
 * files (and removes those of modules that are gone).
 */
const UPDATE = process.env.SQL_SNAPSHOTS === 'update';
const ROOT = new URL('../../sql/', import.meta.url);

function matchesSnapshot(file: string, text: string): void {
  const url = new URL(file, ROOT);
  if (UPDATE) {
    mkdirSync(new URL('.', url), { recursive: true });
    writeFileSync(url, text);
    return;
  }
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(text, `sql/${file} differs from what the code runs: run \`npm run sql:generate\``).toBe(committed);
}

const MODULES = await Promise.all(queryModules().map(loadQueryModule));
const SAMPLED = MODULES.filter((module) => module.samples !== undefined);

/** The snapshot files the code writes, relative to sql/. */
const EXPECTED = new Set([
  ...SAMPLED.flatMap((module) => SNAPSHOT_DIALECTS.map((dialect) => `${module.path}.${dialect}.sql`)),
]);

describe('SQL snapshots', () => {
  it('every module that runs queries has a sample of each function it exports', () => {
    expect(MODULES.length).toBeGreaterThan(0);
    expect(sampleProblems(MODULES), 'add the samples named below, then run `npm run sql:generate`').toEqual([]);
  });

  it('the scan finds the modules that run queries whatever their name, and not the store itself', () => {
    const paths = MODULES.map((module) => module.path);
    expect(paths).toEqual(
      expect.arrayContaining(['features/activity/shifts/lifecycle', 'idempotency/records', 'auth/keys/api-key', 'auth/keys/repository']),
    );
    expect(paths.filter((path) => path.startsWith('db/'))).toEqual([]);
  });

  it('a missing sample is named with the file it goes in', () => {
    const module = { path: 'features/x/repository', functions: ['findX', 'pure'], samples: { pure: noQuery('pure') } };
    expect(sampleProblems([module, { ...module, path: 'features/y/repository', samples: undefined }])).toEqual([
      'src/features/x/repository.ts exports findX with no sample: add `findX: (db) => findX(db, …)` to `samples` in ' +
        "src/features/x/repository.samples.ts (or `findX: noQuery('why')` if it runs no query)",
      'src/features/y/repository.ts runs queries but has no samples: create src/features/y/repository.samples.ts ' +
        'exporting `samples` (satisfies Samples<typeof module>, src/db/samples.ts) with one entry per exported ' +
        'function: findX, pure',
    ]);
  });

  it('sql/ holds no snapshot of a module that is gone', () => {
    const files = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
      .map((file) => file.split('\\').join('/'))
      .filter((file) => file.endsWith('.sql'));
    const stale = files.filter((file) => !EXPECTED.has(file));
    if (UPDATE) {
      for (const file of stale) rmSync(new URL(file, ROOT));
      return;
    }
    expect(stale, 'run `npm run sql:generate` to remove them').toEqual([]);
  });

  it('SQLite takes every value as +? (a bare ? can make it compile a kept statement again on every run)', async () => {
    let values = 0;
    for (const module of SAMPLED) {
      for (const [name, sample] of moduleSamples(module)) {
        for (const query of await sampleQueries(sample, 'sqlite')) {
          values += query.parameters.length;
          expect({ sample: name, bare: (query.sql.match(/(?<!\+)\?/g) ?? []).length }).toEqual({ sample: name, bare: 0 });
        }
      }
    }
    expect(values).toBeGreaterThan(0);
  });

  it.each(SAMPLED.flatMap((module) => SNAPSHOT_DIALECTS.map((dialect) => [module.path, dialect, module.samples ?? {}] as const)))(
    'the queries of src/%s.ts (%s)',
    async (path, dialect, samples) => {
      matchesSnapshot(`${path}.${dialect}.sql`, await capturedQueries(samples, dialect));
    },
  );
});
