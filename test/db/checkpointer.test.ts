import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type * as SourceConnect from '../../src/db/connect.js';
// The checkpointer is a worker thread loaded from the build (as the serving process loads it), so the store is
// opened from the build too (the global setup builds it).
const BUILT_CONNECT = '../../dist/db/connect.js';
const { openStore } = (await import(BUILT_CONNECT)) as typeof SourceConnect;

async function writeAndMeasure(backgroundCheckpoints: boolean): Promise<{ grewBy: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'wsg-checkpoint-'));
  const filename = join(dir, 'gateway.db');
  const store = openStore(`sqlite:${filename}`, { backgroundCheckpoints });
  try {
    // Without the worker, raise the threshold by hand as the worker's store does: nothing else checkpoints.
    if (!backgroundCheckpoints) await sql`pragma wal_autocheckpoint = 20000`.execute(store.db);
    await sql`create table filler (id integer primary key, body text not null)`.execute(store.db);
    const before = statSync(filename).size;
    // About 4 MB through the log: far below the fallback threshold, above the default one.
    for (let i = 0; i < 200; i += 1) {
      await sql`insert into filler (body) values (${'x'.repeat(20_000)})`.execute(store.db);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return { grewBy: statSync(filename).size - before };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('background WAL checkpoints (SQLite, serving process)', () => {
  it('copy committed pages into the database file from a worker, without a commit doing it', async () => {
    const background = await writeAndMeasure(true);
    // The worker checkpointed: the 4 MB reached the database file although no commit hit the (raised) threshold.
    expect(background.grewBy).toBeGreaterThan(3_000_000);
  });

  it('control: with the same raised threshold and no worker, the pages stay in the log', async () => {
    const inline = await writeAndMeasure(false);
    expect(inline.grewBy).toBeLessThan(100_000);
  });
});
