import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RankSync } from '../../../src/features/ranks/sync/sync.ts';
import { systemTimer } from '../../../src/webhooks/timer.ts';
import type { Store } from '../../../src/db/connect.ts';
import { applyProvisioning } from '../../../src/provisioning/apply.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken } from '../../helpers/fixtures.ts';
import { postgresAvailable } from '../../helpers/stores.ts';
import { SILENT_LOG } from '../../webhooks/receiver.ts';
import { FakeOpenCloud } from './fake-open-cloud.ts';
import { changeRank, MANAGER, rankDocument, staffMember } from './world.ts';

const COUNT = 24;

describe.runIf(postgresAvailable)('several instances sharing PostgreSQL (postgres)', () => {
  let ctx: TestContext;
  let fake: FakeOpenCloud;
  const stores: Store[] = [];
  beforeAll(async () => {
    ctx = await createTestContext('postgres');
    fake = await FakeOpenCloud.start();
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await fake?.close();
    await ctx?.close();
  });

  it('apply each pending change once, in each staff member\'s order', async () => {
    const staff = Array.from({ length: COUNT }, (_, i) => staffMember(100 + i, 'Moderator'));
    const doc = rankDocument({ staff });
    await applyProvisioning(ctx.store.db, doc, ctx.clock);
    const token = await dashboardToken(MANAGER, { expiresAt: DEFAULT_NOW + 3_600_000 });
    for (const member of staff) {
      expect((await changeRank(ctx.inject, token, member.id, { rank: 'Senior Moderator' })).statusCode).toBe(200);
      ctx.clock.advance(1);
      expect((await changeRank(ctx.inject, token, member.id, { rank: 'Trainee' })).statusCode).toBe(200);
    }
    fake.answer = () => ({ status: 200, delayMs: 5 });
    const instances = [0, 1, 2].map(() => {
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
          callLimit: { max: 1_000, windowMs: 60_000 },
        },
      });
    });
    for (let round = 0; round < 40; round += 1) {
      const claimed = await Promise.all(instances.map((instance) => instance.runOnce()));
      if (claimed.every((n) => n === 0)) break;
    }
    const rows = await ctx.store.db.selectFrom('rank_changes').select(['sync_status', 'attempts']).execute();
    expect(rows).toHaveLength(COUNT * 2);
    expect(rows.every((row) => row.sync_status === 'applied' && row.attempts === 1)).toBe(true);
    // Each change's two calls exactly once, a staff member's first change before their second.
    expect(fake.calls).toHaveLength(COUNT * 4);
    for (const member of staff) {
      expect(fake.summary().filter((line) => line.includes(` ${member.gameUserId} `))).toEqual([
        `assign ${member.gameUserId} 103`,
        `unassign ${member.gameUserId} 102`,
        `assign ${member.gameUserId} 101`,
        `unassign ${member.gameUserId} 103`,
      ]);
    }
  });
});
