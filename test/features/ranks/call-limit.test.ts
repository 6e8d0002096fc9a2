import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/db/connect.ts';
import { takeCalls } from '../../../src/features/ranks/sync/call-limit.ts';
import { RankSync, type RankSyncSettings } from '../../../src/features/ranks/sync/sync.ts';
import { systemTimer } from '../../../src/webhooks/timer.ts';
import { applyProvisioning, type ProvisioningDocument } from '../../../src/provisioning/apply.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken } from '../../helpers/fixtures.ts';
import { createTestDatabase, postgresAvailable, STORE_KINDS, type TestDatabase } from '../../helpers/stores.ts';
import { SILENT_LOG } from '../../webhooks/receiver.ts';
import { FakeOpenCloud } from './fake-open-cloud.ts';
import { API_KEY, changeRank, MANAGER, rankChanges, rankDocument, staffMember } from './world.ts';

/**
 * The Open Cloud call limit is the API key's, whichever instance calls: sync workers that each have their own
 * connection to one database (as gateway instances do) share it. The fake counts what it receives on the test's
 * clock, so "a window" is exact.
 */

const WINDOW_MS = 60_000;
const MAX = 6;
const OTHER_KEY = 'ocak_SECRET_second_roblox_api_key_fedcba9876543210';
const OTHER_MANAGER = 'user-rank-manager-2';

describe.each(STORE_KINDS)('the Open Cloud call limit, shared by the instances on one database (%s)', (kind) => {
  let ctx: TestContext;
  let fake: FakeOpenCloud;
  const stores: Store[] = [];

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    fake = await FakeOpenCloud.start();
    fake.now = () => ctx.clock.now();
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await fake.close();
    await ctx.close();
  });

  /** A sync worker with a connection of its own, as another instance would have. */
  function worker(settings: Partial<RankSyncSettings> = {}): RankSync {
    const store = ctx.database.open();
    stores.push(store);
    return new RankSync({
      store,
      clock: ctx.clock,
      timer: systemTimer,
      log: SILENT_LOG,
      settings: {
        baseUrl: fake.baseUrl,
        timeoutMs: 5_000,
        leaseMs: 60_000,
        pollIntervalMs: 1_000,
        retry: { firstDelayMs: 1_000, maxDelayMs: 60_000 },
        batch: 4,
        callLimit: { max: MAX, windowMs: WINDOW_MS },
        ...settings,
      },
      random: () => 1,
    });
  }

  /** Moderators 100.. of the workspace, each promoted once: two calls a change (assign the new role, unassign the old). */
  async function promoted(count: number, doc: ProvisioningDocument = rankDocument(), manager = MANAGER, first = 100) {
    const staff = Array.from({ length: count }, (_, i) => staffMember(first + i, 'Moderator'));
    doc.workspaces[0]!.staff = staff;
    await applyProvisioning(ctx.store.db, doc, ctx.clock);
    const token = await dashboardToken(manager, { expiresAt: DEFAULT_NOW + 3_600_000 });
    for (const member of staff) {
      expect((await changeRank(ctx.inject, token, member.id, { rank: 'Senior Moderator' })).statusCode).toBe(200);
      // One after the other: changes are claimed, and their calls taken, in this order.
      ctx.clock.advance(1);
    }
    return staff;
  }

  const statuses = () => ctx.store.db.selectFrom('rank_changes').select(['sync_status', 'attempts']).execute();

  it('two workers with their own connections together never exceed the limit in any window, and use all of it', async () => {
    const count = 12;
    await promoted(count);
    const workers = [worker(), worker()];
    for (let round = 0; round < 30; round += 1) {
      await Promise.all(workers.map((each) => each.runOnce()));
      if ((await statuses()).every((row) => row.sync_status === 'applied')) break;
      ctx.clock.advance(WINDOW_MS / 3);
    }
    const rows = await statuses();
    expect(rows).toHaveLength(count);
    expect(rows.every((row) => row.sync_status === 'applied' && Number(row.attempts) === 1)).toBe(true);
    expect(fake.calls).toHaveLength(count * 2);
    // Each worker alone would have taken the whole limit in the first round (a batch of 4 changes is 8 calls).
    expect(fake.busiestWindow(WINDOW_MS)).toBe(MAX);
    // The limit's state is the key's hash and call times: never the key.
    const windows = await ctx.store.db.selectFrom('roblox_call_windows').selectAll().execute();
    expect(windows.map((row) => row.key_hash)).toEqual([createHash('sha256').update(API_KEY).digest('hex')]);
    expect(JSON.stringify(windows)).not.toContain(API_KEY);
  });

  it('a change the window has no room for is left unclaimed and untried, due exactly when the window has room', async () => {
    const [first, second, third] = (await promoted(3)).map((member) => member.id);
    const token = await dashboardToken(MANAGER, { expiresAt: DEFAULT_NOW + 3_600_000 });
    // The first change's assign meets a 503: retried later, with its last error.
    let failed = false;
    fake.answer = (call) => {
      if (failed || !call.path.includes(staffMember(100).gameUserId)) return { status: 200 };
      failed = true;
      return { status: 503, code: 'UNAVAILABLE', message: 'down' };
    };
    const [one, other] = [worker({ callLimit: { max: 4, windowMs: WINDOW_MS } }), worker({ callLimit: { max: 4, windowMs: WINDOW_MS } })];
    const start = ctx.clock.now();
    expect(await one.runOnce()).toBe(2);
    // The 503 ended the first change's try after one call; both of its calls were taken all the same.
    expect(fake.calls).toHaveLength(3);
    const sync = async (staffId: string) => ((await rankChanges(ctx.inject, token, staffId)).json().data.changes as Array<{ sync: unknown }>)[0]!.sync;
    expect(await sync(first!)).toMatchObject({ status: 'pending', attempts: 1, lastError: { status: 503 } });
    expect(await sync(third!)).toEqual({ status: 'pending', attempts: 0, lastError: null, appliedAt: null });
    // The other worker finds the key's window full: it claims nothing, calls nothing.
    ctx.clock.advance(1_000);
    expect(await other.runOnce()).toBe(0);
    expect(fake.calls).toHaveLength(3);
    expect(await sync(first!)).toMatchObject({ status: 'pending', attempts: 1, lastError: { status: 503 } });
    const waiting = await ctx.store.db.selectFrom('rank_changes').select(['staff_id', 'next_attempt_at', 'claimed_by']).where('sync_status', '=', 'pending').execute();
    expect(waiting.map((row) => [row.staff_id, Number(row.next_attempt_at), row.claimed_by]).sort()).toEqual(
      [
        [first, start + WINDOW_MS, null],
        [third, start + WINDOW_MS, null],
      ].sort(),
    );
    expect(await sync(second!)).toMatchObject({ status: 'applied' });
    ctx.clock.advance(WINDOW_MS - 1_001);
    expect(await other.runOnce()).toBe(0);
    ctx.clock.advance(1);
    expect(await other.runOnce()).toBe(2);
    expect(await sync(first!)).toMatchObject({ status: 'applied', attempts: 2 });
    expect(await sync(third!)).toMatchObject({ status: 'applied', attempts: 1 });
    expect(fake.busiestWindow(WINDOW_MS)).toBe(4);
  });

  it('the limit is each API key\'s: a full window of one key holds back none of another\'s changes', async () => {
    await promoted(3);
    const doc = rankDocument();
    const workspace = doc.workspaces[0]!;
    doc.workspaces = [
      {
        ...workspace,
        id: '7a1f0c52-3b4d-4e6f-8a9b-0c1d2e3f4b01',
        slug: 'ranks-two',
        roblox: { groupId: '4200002', apiKey: OTHER_KEY },
        members: [{ userId: OTHER_MANAGER, permissions: ['staff.rank'] }],
        forms: [],
      },
    ];
    await promoted(1, doc, OTHER_MANAGER, 200);
    const one = worker({ callLimit: { max: 4, windowMs: WINDOW_MS } });
    expect(await one.runOnce()).toBe(3);
    expect(fake.calls.filter((call) => call.apiKey === API_KEY)).toHaveLength(4);
    expect(fake.calls.filter((call) => call.apiKey === OTHER_KEY)).toHaveLength(2);
  });
});

describe.runIf(postgresAvailable)('two instances taking the same key\'s calls at once (postgres)', () => {
  let database: TestDatabase;
  const stores: Store[] = [];
  beforeEach(async () => {
    database = await createTestDatabase('postgres');
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await database.drop();
  });

  it('the second waits for the first to commit, then counts what it took: they never both take the last calls', async () => {
    const [a, b] = [database.open(), database.open()];
    stores.push(a, b);
    const window = { max: 2, windowMs: WINDOW_MS };
    // The key's row exists already (a call of the window before).
    await a.write((trx) => takeCalls(trx, [{ id: 'earlier', apiKey: API_KEY, calls: 1 }], DEFAULT_NOW - WINDOW_MS, window));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let took!: () => void;
    const taken = new Promise<void>((resolve) => (took = resolve));
    const first = a.write(async (trx) => {
      const later = await takeCalls(trx, [{ id: 'first', apiKey: API_KEY, calls: 2 }], DEFAULT_NOW, window);
      took();
      await held;
      return later;
    });
    await taken;
    const second = b.write((trx) => takeCalls(trx, [{ id: 'second', apiKey: API_KEY, calls: 1 }], DEFAULT_NOW, window));
    const settled = await Promise.race([second.then(() => 'taken'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
    expect(settled).toBe('waiting');
    release();
    expect([...(await first)]).toEqual([]);
    expect([...(await second)]).toEqual([['second', DEFAULT_NOW + WINDOW_MS]]);
  });
});
