import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { capturedQueries, SNAPSHOT_DIALECTS, sampleQueries, snapshotSamples } from './sql-samples.ts';

/**
 * What the database runs, as committed text: the queries of the repositories, compiled for both stores with
 * sample values, in `sql/` at the root of the repository. A change to what the database runs shows in the diff.
 * After such a change, `npm run sql:generate` rewrites the files.
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

describe('SQL snapshots', () => {
  it('SQLite takes every value as +? (a bare ? can make it compile a kept statement again on every run)', async () => {
    let values = 0;
    for (const module of snapshotSamples()) {
      for (const sample of module.samples) {
        for (const query of await sampleQueries(sample, 'sqlite')) {
          values += query.parameters.length;
          expect({ sample: sample.name, bare: (query.sql.match(/(?<!\+)\?/g) ?? []).length }).toEqual({
            sample: sample.name,
            bare: 0,
          });
        }
      }
    }
    expect(values).toBeGreaterThan(0);
  });

  it.each(snapshotSamples().flatMap((module) => SNAPSHOT_DIALECTS.map((dialect) => [module.file, dialect, module] as const)))(
    'the queries of %s (%s)',
    async (file, dialect, module) => {
      matchesSnapshot(`${file}.${dialect}.sql`, await capturedQueries(module, dialect));
    },
  );
});
