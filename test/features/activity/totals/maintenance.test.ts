/**
 * The activity totals are written in the transaction of every change that completes a shift, whichever path
 * completes it: a stop, the timeout applied on the spot (by start, heartbeat, stop and GET) and the sweep.
 * After each, the totals are exactly what a rebuild from the shifts gives, and hold the shift.
 */
import { describe, expect, it } from 'vitest';
import { sweepTimedOutShifts } from '../../../../src/features/activity/shifts/sweep.ts';
import { rebuildTotals } from '../../../../src/features/activity/totals/service.ts';
import { DEFAULT_NOW } from '../../../helpers/app.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { dataOf, iso, startBody, useShiftWorld } from '../shifts/shift-client.ts';

const TIMEOUT_MS = 60_000;

describe.each(STORE_KINDS)('activity totals kept by every completion (%s)', (kind) => {
  const world = useShiftWorld(kind, { env: { SHIFT_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000) } });

  async function totals() {
    return world.ctx.store.db
      .selectFrom('activity_totals')
      .select(['environment', 'grain', 'bucket_start', 'staff_id', 'worked_ms', 'started_shifts', 'carried_shifts'])
      .where('workspace_id', '=', world.fixture.ids.workspaceId)
      .orderBy('grain')
      .orderBy('bucket_start')
      .orderBy('staff_id')
      .execute();
  }

  /** The totals equal a rebuild's, and their week buckets hold `shifts` shifts and `workedMs` of time. */
  async function expectTotals(shifts: number, workedMs: number) {
    const kept = await totals();
    await rebuildTotals({ db: world.ctx.store.db, write: (job) => world.ctx.store.write(job) }, world.fixture.ids.workspaceId);
    expect(await totals()).toEqual(kept);
    const weeks = kept.filter((row) => row.grain === 'week');
    expect(weeks.reduce((sum, row) => sum + Number(row.started_shifts), 0)).toBe(shifts);
    expect(weeks.reduce((sum, row) => sum + Number(row.worked_ms), 0)).toBe(workedMs);
  }

  async function start(gameUserId = world.fixture.staff.alice.gameUserId): Promise<string> {
    const res = await world.client.start(startBody(world.fixture, { gameUserId }));
    return dataOf<{ shift: { id: string } }>(res).shift.id;
  }

  it('a stop', async () => {
    const id = await start();
    world.ctx.clock.advance(50_000);
    dataOf(await world.client.stop(id, { endedAt: iso(DEFAULT_NOW + 50_000) }));
    await expectTotals(1, 50_000);
  });

  it('the timeout on the spot, by heartbeat, stop, start and GET', async () => {
    const first = await start();
    dataOf(await world.client.heartbeat(first, { recordedAt: iso(DEFAULT_NOW + 10_000) }));
    world.ctx.clock.advance(TIMEOUT_MS + 1);
    expect((await world.client.heartbeat(first)).statusCode).toBe(409);
    await expectTotals(1, 10_000);

    const second = await start();
    world.ctx.clock.advance(TIMEOUT_MS + 1);
    expect((await world.client.stop(second)).statusCode).toBe(409);
    await expectTotals(2, 10_000);

    await start();
    world.ctx.clock.advance(TIMEOUT_MS + 1);
    const fourth = await start(); // completes the third, timed out
    await expectTotals(3, 10_000);

    world.ctx.clock.advance(TIMEOUT_MS + 1);
    expect((await world.client.get(fourth)).statusCode).toBe(200);
    await expectTotals(4, 10_000);
  });

  it('the sweep', async () => {
    const alice = await start();
    const bob = await start(world.fixture.staff.bob.gameUserId);
    dataOf(await world.client.heartbeat(alice, { recordedAt: iso(DEFAULT_NOW + 5_000) }));
    dataOf(await world.client.heartbeat(bob, { recordedAt: iso(DEFAULT_NOW + 7_000) }));
    world.ctx.clock.advance(TIMEOUT_MS + 1);
    const swept = await sweepTimedOutShifts({ write: (job) => world.ctx.store.write(job), clock: world.ctx.clock, config: world.ctx.config });
    expect(swept).toBe(2);
    await expectTotals(2, 12_000);
  });
});
