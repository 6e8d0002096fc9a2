import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../../src/db/connect.ts';
import { PRUNED_TABLES, pruneOldRecords, retentionCutoff } from '../../../src/features/retention/service.ts';
import { startBackgroundJobs } from '../../../src/runtime/jobs.ts';
import { ManualClock } from '../../../src/shared/clock.ts';
import { DEFAULT_NOW, testConfig } from '../../helpers/app.ts';
import { runCli } from '../../helpers/cli.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../../helpers/stores.ts';
import { addCommand, addDelivery, countRows, DAY, seedWorkspace } from './seed.ts';

const KEPT_TABLES = ['workspaces', 'staff', 'submissions', 'webhook_endpoints'] as const;
const ALL_TABLES = [...PRUNED_TABLES, ...KEPT_TABLES];

describe('retention cutoff', () => {
  it('is the retention window before now, or none when RETENTION_DAYS is 0', () => {
    expect(retentionCutoff(DEFAULT_NOW, 180)).toBe(DEFAULT_NOW - 180 * DAY);
    expect(retentionCutoff(DEFAULT_NOW, 0)).toBeNull();
  });
});

describe.each(STORE_KINDS)('retention prune (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;

  beforeEach(async () => {
    database = await createTestDatabase(kind);
    store = database.open();
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  /**
   * Old (200 days, written by the old workspace) and recent (10 days) records of every pruned kind: 3 old
   * commands, 2 recent; old deliveries: 2 delivered (2 attempts each), 1 failed, 1 still pending and claimed
   * (1 attempt); 1 recent delivered. Console sign-in codes: 2 expired 200 days ago (one used), 1 expired 10 days
   * ago, 1 still usable.
   */
  async function seedWorld(now: number) {
    const old = now - 200 * DAY;
    const recent = now - 10 * DAY;
    const ids = await seedWorkspace(store.db, old);
    for (let i = 0; i < 3; i++) await addCommand(store.db, ids.workspaceId, ids.submissionId, old + i);
    for (let i = 0; i < 2; i++) await addCommand(store.db, ids.workspaceId, null, recent + i);
    await addDelivery(store.db, ids, 'delivered', old, 2);
    await addDelivery(store.db, ids, 'delivered', old + 1, 2);
    await addDelivery(store.db, ids, 'failed', old + 2, 1);
    await addDelivery(store.db, ids, 'pending', old + 3, 1);
    await addDelivery(store.db, ids, 'delivered', recent, 1);
    const code = (n: number, expiresAt: number, used: boolean) => ({
      code_hash: `code-${n}`,
      user_id: 'user-1',
      created_at: expiresAt - 600_000,
      expires_at: expiresAt,
      used_at: used ? expiresAt - 300_000 : null,
    });
    await store.db
      .insertInto('console_sign_in_codes')
      .values([code(1, old, true), code(2, old + 1, false), code(3, recent, false), code(4, now + 600_000, false)])
      .execute();
  }

  const removedOld = {
    webhook_attempts: 5,
    webhook_deliveries: 3,
    webhook_events: 3,
    events: 3,
    commands: 3,
    console_sign_in_codes: 2,
  };
  const left = {
    webhook_attempts: 2,
    webhook_deliveries: 2,
    webhook_events: 2,
    events: 2,
    commands: 2,
    console_sign_in_codes: 2,
    workspaces: 1,
    staff: 1,
    submissions: 1,
    webhook_endpoints: 1,
  };

  it('deletes what is older than the window in small batches, keeps pending deliveries and the tables never pruned', async () => {
    await seedWorld(DEFAULT_NOW);
    const clock = new ManualClock(DEFAULT_NOW);
    const batches: string[] = [];
    const result = await pruneOldRecords((job) => store.write(job), clock, {
      retentionDays: 180,
      batch: 2,
      onBatch: (table, deleted, done) => batches.push(`${table}:${deleted}${done ? ':done' : ''}`),
    });
    expect(result).toEqual(removedOld);
    expect(batches).toContain('webhook_attempts:2');
    expect(batches).toContain('webhook_attempts:5:done');
    expect(await countRows(store.db, ALL_TABLES)).toEqual(left);
    const pending = await store.db.selectFrom('webhook_deliveries').select('status').where('status', '=', 'pending').execute();
    expect(pending).toHaveLength(1);
    expect(await pruneOldRecords((job) => store.write(job), clock, { retentionDays: 180 })).toEqual({
      webhook_attempts: 0,
      webhook_deliveries: 0,
      webhook_events: 0,
      events: 0,
      commands: 0,
      console_sign_in_codes: 0,
    });
  });

  it('RETENTION_DAYS 0 keeps everything', async () => {
    await seedWorld(DEFAULT_NOW);
    const before = await countRows(store.db, ALL_TABLES);
    const result = await pruneOldRecords((job) => store.write(job), new ManualClock(DEFAULT_NOW), { retentionDays: 0 });
    expect(Object.values(result)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await countRows(store.db, ALL_TABLES)).toEqual(before);
  });

  it('two instances pruning at once delete each row once', async () => {
    await seedWorld(DEFAULT_NOW);
    const other = database.open();
    try {
      const clock = new ManualClock(DEFAULT_NOW);
      const results = await Promise.all([
        pruneOldRecords((job) => store.write(job), clock, { retentionDays: 180, batch: 1 }),
        pruneOldRecords((job) => other.write(job), clock, { retentionDays: 180, batch: 1 }),
      ]);
      const total = Object.fromEntries(PRUNED_TABLES.map((table) => [table, results[0][table] + results[1][table]]));
      // Either may stop early when the other holds the rows it would take; whatever is left, a third run takes.
      const rest = await pruneOldRecords((job) => store.write(job), clock, { retentionDays: 180 });
      for (const table of PRUNED_TABLES) expect((total[table] ?? 0) + rest[table]).toBe(removedOld[table]);
      expect(await countRows(store.db, ALL_TABLES)).toEqual(left);
    } finally {
      await other.close();
    }
  });

  it('the serving instance prunes a minute after start (RETENTION_DAYS), not before, and not at all with 0', async () => {
    await seedWorld(DEFAULT_NOW);
    const clock = new ManualClock(DEFAULT_NOW);
    const log = { error: vi.fn() };
    const start = (env: Record<string, string>) =>
      startBackgroundJobs({ store, clock, config: testConfig({ DATABASE_URL: database.url, ...env }), log: log as never });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const off = start({ RETENTION_DAYS: '0' });
    const on = start({});
    try {
      vi.advanceTimersByTime(59_000);
      expect((await countRows(store.db, ['commands'])).commands).toBe(5);
      vi.advanceTimersByTime(1_000);
      vi.useRealTimers();
      await vi.waitFor(async () => expect(await countRows(store.db, ALL_TABLES)).toEqual(left), { timeout: 10_000 });
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      off.stop();
      on.stop();
      vi.useRealTimers();
    }
  });

  it('prune prints what it removed per table; --days overrides RETENTION_DAYS; a second run removes nothing', async () => {
    await seedWorld(Date.now());
    const env = { DATABASE_URL: database.url, RETENTION_DAYS: '0' };
    const kept = await runCli(['prune'], env);
    expect(kept.code).toBe(0);
    expect(JSON.parse(kept.stdout)).toEqual({
      deleted: { webhook_attempts: 0, webhook_deliveries: 0, webhook_events: 0, events: 0, commands: 0, console_sign_in_codes: 0 },
    });
    const first = await runCli(['prune', '--days', '180'], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ deleted: removedOld });
    expect(await countRows(store.db, ALL_TABLES)).toEqual(left);
    const second = await runCli(['prune'], { DATABASE_URL: database.url, RETENTION_DAYS: '5' });
    expect(JSON.parse(second.stdout)).toEqual({
      deleted: { webhook_attempts: 1, webhook_deliveries: 1, webhook_events: 1, events: 2, commands: 2, console_sign_in_codes: 1 },
    });
    const third = await runCli(['prune', '--days', '5'], env);
    expect(Object.values((JSON.parse(third.stdout) as { deleted: object }).deleted)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await countRows(store.db, ['webhook_deliveries', ...KEPT_TABLES])).toEqual({
      webhook_deliveries: 1,
      workspaces: 1,
      staff: 1,
      submissions: 1,
      webhook_endpoints: 1,
    });
  });
});
