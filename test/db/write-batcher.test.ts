import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/connect.js';
import { WriteBatcher } from '../../src/db/write-batcher.js';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.js';

describe('SQLite group commit', () => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = database.open();
    // The jobs write bare member rows; their workspace is beside the point here.
    await sql`PRAGMA foreign_keys = OFF`.execute(store.db);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  const insertMember = (userId: string) => async (trx: Parameters<Parameters<WriteBatcher['submit']>[0]>[0]) => {
    await trx.insertInto('members').values({ workspace_id: 'w', user_id: userId, permissions: '[]' }).execute();
    return userId;
  };

  it('writes submitted together share one commit, and each is answered after it', async () => {
    const batcher = new WriteBatcher(store.db);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => batcher.submit(insertMember(`u${i}`))));
    expect(results).toHaveLength(20);
    expect(batcher.batches).toBe(1);
    const rows = await store.db.selectFrom('members').select('user_id').execute();
    expect(rows).toHaveLength(20);
  });

  it('a failing job is undone alone; the others in its batch commit', async () => {
    const batcher = new WriteBatcher(store.db);
    const outcomes = await Promise.allSettled([
      batcher.submit(insertMember('ok-1')),
      batcher.submit(async (trx) => {
        await insertMember('bad')(trx);
        throw new Error('nope');
      }),
      batcher.submit(insertMember('ok-2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batcher.batches).toBe(1);
    const names = (await store.db.selectFrom('members').select('user_id').execute()).map((r) => r.user_id);
    expect(names).toContain('ok-1');
    expect(names).toContain('ok-2');
    expect(names).not.toContain('bad');
  });

  it('direct jobs run in the same batch and commit, each in its own savepoint like any job', async () => {
    const direct = store.direct;
    if (!direct) throw new Error('a SQLite store has a direct connection');
    const batcher = new WriteBatcher(store.db, 128, direct);
    const insert = (userId: string) =>
      store.db.insertInto('members').values({ workspace_id: 'w', user_id: userId, permissions: '[]' }).compile();
    const outcomes = await Promise.allSettled([
      batcher.submitDirect((sqlite) => {
        sqlite.run(insert('direct-1'));
        return 'first';
      }),
      batcher.submit(insertMember('queued-2')),
      batcher.submitDirect((sqlite) => {
        sqlite.run(insert('direct-bad'));
        throw new Error('nope');
      }),
      batcher.submitDirect((sqlite) => {
        sqlite.run(insert('direct-3'));
        return sqlite.all(store.db.selectFrom('members').select('user_id').where('user_id', 'like', 'direct-%').compile())
          .map((row) => row.user_id)
          .sort();
      }),
    ]);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 'first' },
      { status: 'fulfilled', value: 'queued-2' },
      { status: 'rejected', reason: new Error('nope') },
      // The batch's own writes are visible inside it; the failed job's are gone.
      { status: 'fulfilled', value: ['direct-1', 'direct-3'] },
    ]);
    expect(batcher.batches).toBe(1);
    const names = (await store.db.selectFrom('members').select('user_id').execute()).map((r) => r.user_id);
    expect(names).toEqual(expect.arrayContaining(['direct-1', 'queued-2', 'direct-3']));
    expect(names).not.toContain('direct-bad');
  });

  it('refuses a direct job when it was given no connection for them', async () => {
    await expect(new WriteBatcher(store.db).submitDirect(() => 1)).rejects.toThrow(/no direct connection/);
  });
});
