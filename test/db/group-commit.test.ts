import { Kysely, SqliteDialect, sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/connect.ts';
import { GroupCommit, WAIT_FOR_COMPANY } from '../../src/db/group-commit.ts';
import { SqliteDatabase } from '../../src/db/sqlite-driver.ts';
import { cachingSqliteDatabase } from '../../src/db/sqlite-dialect.ts';
import type { Database } from '../../src/db/types.ts';
import { workspaceRow } from '../helpers/rows.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase, withTestStore } from '../helpers/stores.ts';

const insertMember = (userId: string) => async (trx: Transaction<Database>) => {
  await trx.insertInto('members').values({ workspace_id: 'w', user_id: userId, permissions: '[]' }).execute();
  return userId;
};

describe('SQLite group commit', () => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  let writer: GroupCommit;
  /** The same connection with a time budget no batch reaches: for tests about batching, not about the budget. */
  let unbudgeted: GroupCommit;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    // A connection of its own, as a store opens it, so the test can count the group commit's transactions.
    const connection = cachingSqliteDatabase(new SqliteDatabase(database.url.slice('sqlite:'.length)));
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
    writer = new GroupCommit(db);
    unbudgeted = new GroupCommit(db, { budgetMs: 60_000 });
    // The jobs write bare member rows; their workspace is beside the point here.
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('writes submitted together share one commit, and each is answered after it', async () => {
    // Under the default 6 ms budget a slow machine may split them (the budget test below covers that).
    const before = unbudgeted.batches;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => unbudgeted.write(insertMember(`u${i}`))));
    expect(results).toHaveLength(20);
    expect(unbudgeted.batches - before).toBe(1);
    const rows = await db.selectFrom('members').select('user_id').where('user_id', 'like', 'u%').execute();
    expect(rows).toHaveLength(20);
  });

  it('a failing job is undone alone; the others in its batch commit', async () => {
    const before = unbudgeted.batches;
    const outcomes = await Promise.allSettled([
      unbudgeted.write(insertMember('ok-1')),
      unbudgeted.write(async (trx) => {
        await insertMember('bad')(trx);
        throw new Error('nope');
      }),
      unbudgeted.write(insertMember('ok-2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(unbudgeted.batches - before).toBe(1);
    const names = (await db.selectFrom('members').select('user_id').execute()).map((r) => r.user_id);
    expect(names).toContain('ok-1');
    expect(names).toContain('ok-2');
    expect(names).not.toContain('bad');
  });

  it('a batch stops taking jobs past its time budget; the rest commit in the next batches, in order', async () => {
    const busy = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // a job that holds the event loop
      }
    };
    const before = writer.batches;
    const committed: string[] = [];
    const jobs = Array.from({ length: 6 }, (_, i) =>
      writer.write(async (trx) => {
        busy(4);
        await insertMember(`budget-${i}`)(trx);
        committed.push(`budget-${i}`);
        return i;
      }),
    );
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4, 5]);
    // 4 ms jobs under a 6 ms budget: two per batch at most (the first always runs).
    expect(writer.batches - before).toBeGreaterThanOrEqual(3);
    expect(committed).toEqual(['budget-0', 'budget-1', 'budget-2', 'budget-3', 'budget-4', 'budget-5']);
    const rows = await db.selectFrom('members').select('user_id').where('user_id', 'like', 'budget-%').execute();
    expect(rows).toHaveLength(6);
  });

  describe('waiting for company', () => {
    /** Resolves with whether `job` had started when a 1 ms timer set beside its write fired. */
    const startedWithinTimer = async (groupCommit: GroupCommit, userId: string) => {
      let started = false;
      const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(started), 1));
      const written = groupCommit.write(async (trx) => {
        started = true;
        return insertMember(userId)(trx);
      });
      const startedInTime = await timer;
      await written;
      return startedInTime;
    };

    /**
     * Whether a write to a writer that waits 10 s for company was answered within 5 s: a write that waited is not.
     * (Not a timing of the write itself: on a loaded machine a write that did not wait still answers in far less.)
     */
    const answeredWithoutWaiting = async (groupCommit: GroupCommit, userId: string) => {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), 5_000);
      });
      const answered = await Promise.race([groupCommit.write(insertMember(userId)).then(() => true as const), waited]);
      clearTimeout(timer);
      return answered;
    };

    it('a lone writer\'s write never waits for company', async () => {
      const alone = new GroupCommit(db, { budgetMs: 60_000, gatherMs: 10_000, concurrentForMs: 60_000 });
      for (let i = 0; i < 3; i += 1) expect(await answeredWithoutWaiting(alone, `alone-${i}`)).toBe(true);
      expect(alone.batches).toBe(3);
    });

    it('while writers are concurrent, a batch that would start alone waits for the writes about to arrive', async () => {
      const gathering = new GroupCommit(db, { budgetMs: 60_000, gatherMs: 2, concurrentForMs: 60_000 });
      await Promise.all([gathering.write(insertMember('overlap-1')), gathering.write(insertMember('overlap-2'))]);
      const before = gathering.batches;
      // The second write's timer is due before the first batch's wait ends (1 ms against 2, set after it).
      const first = gathering.write(insertMember('company-1'));
      const second = new Promise<string>((resolve, reject) => {
        setTimeout(() => gathering.write(insertMember('company-2')).then(resolve, reject), 1);
      });
      expect(await Promise.all([first, second])).toEqual(['company-1', 'company-2']);
      expect(gathering.batches - before).toBe(1);
      expect(await startedWithinTimer(gathering, 'company-3')).toBe(false);
    });

    it('stops waiting once the writers have been alone for a while', async () => {
      const gathering = new GroupCommit(db, { budgetMs: 60_000, gatherMs: 10_000, concurrentForMs: 30 });
      // Concurrent writers, enough of them for their batch to start without waiting.
      await Promise.all(Array.from({ length: WAIT_FOR_COMPANY.gatherBelow }, (_, i) => gathering.write(insertMember(`was-${i}`))));
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(await answeredWithoutWaiting(gathering, 'alone-again')).toBe(true);
    });
  });

  it('hold: waits for the batch under way, keeps the next ones queued until release, then commits them', async () => {
    let finishRunning: () => void = () => undefined;
    const running = unbudgeted.write(async (trx) => {
      await new Promise<void>((resolve) => {
        finishRunning = resolve;
      });
      return insertMember('held-0')(trx);
    });
    await new Promise((resolve) => setTimeout(resolve, 20)); // the first batch is under way
    let holding = false;
    const held = unbudgeted.hold().then(() => {
      holding = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(holding).toBe(false); // the batch under way has not finished
    finishRunning();
    await held;
    await running;
    const before = unbudgeted.batches;
    let answered = false;
    const queued = Promise.all([unbudgeted.write(insertMember('held-1')), unbudgeted.write(insertMember('held-2'))]);
    void queued.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(answered).toBe(false);
    expect(unbudgeted.batches - before).toBe(0);
    // Reads go on while writes are held.
    expect(await db.selectFrom('members').select('user_id').where('user_id', '=', 'held-1').execute()).toEqual([]);
    unbudgeted.release();
    await queued;
    expect(unbudgeted.batches - before).toBe(1);
    const names = (await db.selectFrom('members').select('user_id').where('user_id', 'like', 'held-%').execute()).map(
      (r) => r.user_id,
    );
    expect(names.sort()).toEqual(['held-0', 'held-1', 'held-2']);
  });
});

describe.each(STORE_KINDS)('the store\'s writer (%s)', (kind) => {
  let store: Store;
  withTestStore(kind, (opened) => {
    store = opened;
  });

  const slugsOf = async () =>
    (await store.db.selectFrom('workspaces').select('slug').orderBy('slug').execute()).map((r) => r.slug);

  function insertWorkspace(slug: string) {
    return async (trx: Transaction<Database>) => {
      await trx.insertInto('workspaces').values(workspaceRow(slug, slug, 0)).execute();
      return slug;
    };
  }

  it('commits a job that succeeds and keeps nothing of one that throws', async () => {
    await expect(store.write(insertWorkspace('kept'))).resolves.toBe('kept');
    await expect(
      store.write(async (trx) => {
        await insertWorkspace('dropped')(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await slugsOf()).toEqual(['kept']);
  });
});
