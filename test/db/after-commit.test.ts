import type { Transaction } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifyAfterCommit, type Store } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/types.ts';
import { workspaceRow } from '../helpers/rows.ts';
import { STORE_KINDS, withTestStore } from '../helpers/stores.ts';

describe.each(STORE_KINDS)("the store's after-commit listeners (%s)", (kind) => {
  let store: Store;
  let calls: number[] = [];
  withTestStore(kind, (opened) => {
    store = opened;
  });
  beforeAll(() => {
    store.afterCommit(() => calls.push(Date.now()));
  });

  const insertWorkspace = (slug: string, notify: boolean) => async (trx: Transaction<Database>) => {
    await trx.insertInto('workspaces').values(workspaceRow(slug, slug, 0)).execute();
    if (notify) notifyAfterCommit(trx);
    return slug;
  };

  it('are called once a write that asked for it has committed, its rows visible to them', async () => {
    calls = [];
    let visible: unknown[] = [];
    store.afterCommit(() => {
      void store.db.selectFrom('workspaces').select('slug').where('slug', '=', 'notify-1').execute().then((rows) => {
        visible = rows;
      });
    });
    await store.write(insertWorkspace('notify-1', true));
    expect(calls).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(visible).toHaveLength(1);
  });

  it('are not called for a write that did not ask, nor for one that failed', async () => {
    calls = [];
    await store.write(insertWorkspace('quiet-1', false));
    await expect(
      store.write(async (trx) => {
        await insertWorkspace('undone-1', true)(trx);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(calls).toEqual([]);
  });

  it('writes that share a commit call them once for it, however many asked', async () => {
    calls = [];
    await Promise.all([1, 2, 3].map((i) => store.write(insertWorkspace(`group-${i}`, true))));
    // PostgreSQL commits each on its own; SQLite commits them together (in one batch, or two should its time
    // budget split them on a slow machine), and calls the listeners once per commit.
    if (kind === 'postgres') expect(calls).toHaveLength(3);
    else {
      expect(calls.length).toBeGreaterThanOrEqual(1);
      expect(calls.length).toBeLessThan(3);
    }
  });

  it('outside a store\'s write (a bare executor) nothing is asked', async () => {
    calls = [];
    notifyAfterCommit(store.db);
    await store.write(insertWorkspace('after-bare-1', false));
    expect(calls).toEqual([]);
  });
});
