import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/db/connect.ts';

/**
 * The SQLite store's page cache is bounded below better-sqlite3's 16 MB default (src/db/connect.ts says why):
 * every page it keeps is resident memory of the gateway.
 */
describe('the SQLite store (page cache)', () => {
  it('keeps at most 4 MB of pages per connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsg-page-cache-'));
    const store = openStore(`sqlite:${join(dir, 'gateway.db')}`);
    try {
      const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db);
      expect(rows).toEqual([{ cache_size: -4_000 }]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
