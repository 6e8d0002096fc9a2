import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBackgroundJobs } from '../../../../src/runtime/jobs.ts';
import { timeOutShifts } from '../../../../src/features/activity/shifts/lifecycle.ts';
import { sweepIntervalMs, sweepTimedOutShifts } from '../../../../src/features/activity/shifts/sweep.ts';
import { DEFAULT_NOW, type TestContext } from '../../../helpers/app.ts';
import { type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { dataOf, errorCode, iso, startBody, type ShiftClient, useShiftWorld } from './shift-client.ts';

/** The tests run with a one-minute timeout. */
const TIMEOUT_MS = 60_000;

describe('sweep interval', () => {
  it('is a fifth of the timeout, at most 30 s and at least 1 s', () => {
    expect(sweepIntervalMs(300)).toBe(30_000);
    expect(sweepIntervalMs(60)).toBe(12_000);
    expect(sweepIntervalMs(3)).toBe(1_000);
    expect(sweepIntervalMs(1)).toBe(1_000);
    expect(sweepIntervalMs(86_400)).toBe(30_000);
  });
});

describe.each(STORE_KINDS)('shift heartbeat timeout (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let client: ShiftClient;
  let shiftId: string;

  const world = useShiftWorld(kind, { env: { SHIFT_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000) } });
  beforeEach(async () => {
    ({ ctx, fixture, client } = world);
    shiftId = dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture))).shift.id;
  });

  async function row(id = shiftId) {
    return ctx.store.db.selectFrom('shifts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  function sweep(store = ctx.store) {
    return sweepTimedOutShifts({ write: (job) => store.write(job), clock: ctx.clock, config: ctx.config });
  }

  it('the sweep completes a stale shift as of its lastHeartbeatAt with endReason heartbeat_timeout', async () => {
    ctx.clock.advance(20_000);
    dataOf(await client.heartbeat(shiftId, { recordedAt: iso(DEFAULT_NOW + 15_000) }));
    ctx.clock.advance(TIMEOUT_MS + 1);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await row()).toMatchObject({
      status: 'completed',
      ended_at: DEFAULT_NOW + 15_000,
      end_reason: 'heartbeat_timeout',
    });
    const { shift } = dataOf<{ shift: Record<string, unknown> }>(await client.get(shiftId));
    expect(shift).toMatchObject({
      status: 'completed',
      endedAt: iso(DEFAULT_NOW + 15_000),
      durationSeconds: 15,
      minutes: 0,
      endReason: 'heartbeat_timeout',
    });
  });

  it('a shift that times out with no heartbeat counts zero time', async () => {
    ctx.clock.advance(10 * TIMEOUT_MS);
    await sweep();
    expect(await row()).toMatchObject({ status: 'completed', ended_at: DEFAULT_NOW, end_reason: 'heartbeat_timeout' });
  });

  it('the sweep leaves a shift seen exactly SHIFT_TIMEOUT_SECONDS ago alone, and sweeps it 1 ms later', async () => {
    ctx.clock.advance(TIMEOUT_MS);
    await sweep();
    expect((await row()).status).toBe('active');
    ctx.clock.advance(1);
    await sweep();
    expect((await row()).status).toBe('completed');
  });

  it('liveness follows the server clock: heartbeats keep a shift alive whatever their recordedAt', async () => {
    for (let i = 0; i < 3; i += 1) {
      ctx.clock.advance(TIMEOUT_MS - 1000);
      dataOf(await client.heartbeat(shiftId, { recordedAt: iso(DEFAULT_NOW) }));
      await sweep();
    }
    expect(await row()).toMatchObject({ status: 'active', last_heartbeat_at: DEFAULT_NOW });
  });

  it('the sweep leaves completed shifts unchanged and is a no-op on a second run', async () => {
    dataOf(await client.stop(shiftId, { reason: 'player_left' }));
    ctx.clock.advance(2 * TIMEOUT_MS);
    await sweep();
    expect(await row()).toMatchObject({ status: 'completed', end_reason: 'player_left', ended_at: DEFAULT_NOW });
    expect(await sweep()).toBe(0);
  });

  it('sweeps running at once (several instances) complete each stale shift exactly once', async () => {
    const ids = [shiftId];
    for (const name of ['bob'] as const) {
      ids.push(
        dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture, { gameUserId: fixture.staff[name].gameUserId })))
          .shift.id,
      );
    }
    ctx.clock.advance(TIMEOUT_MS + 1);
    const other = ctx.database.open();
    try {
      // Instances share a database on PostgreSQL. On SQLite, two connections to one file inside one process would
      // wait on each other synchronously (a sweep step's transaction holds the write lock across awaits while the
      // other connection's busy wait blocks the thread), so there the second connection sweeps after the first.
      const counts =
        kind === 'postgres'
          ? await Promise.all([sweep(), sweep(other), sweep(), sweep(other)])
          : [...(await Promise.all([sweep(), sweep()])), await sweep(other), await sweep(other)];
      expect(counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
    } finally {
      await other.close();
    }
    for (const id of ids) expect((await row(id)).status).toBe('completed');
  });

  it('the sweep completes timed-out shifts in bounded chunks, each chunk\'s rows returned in its transaction', async () => {
    const ids = [shiftId];
    for (const name of ['bob'] as const) {
      ids.push(
        dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture, { gameUserId: fixture.staff[name].gameUserId })))
          .shift.id,
      );
    }
    ctx.clock.advance(TIMEOUT_MS + 1);
    const cutoff = ctx.clock.now() - TIMEOUT_MS;
    const first = await ctx.store.write((trx) => timeOutShifts(trx, cutoff, 1, ctx.clock.now()));
    const second = await ctx.store.write((trx) => timeOutShifts(trx, cutoff, 1, ctx.clock.now()));
    const third = await ctx.store.write((trx) => timeOutShifts(trx, cutoff, 1, ctx.clock.now()));
    expect([first.length, second.length, third.length]).toEqual([1, 1, 0]);
    const completed = [...first, ...second];
    expect(completed.map((r) => r.id).sort()).toEqual([...ids].sort());
    for (const r of completed) expect(r).toMatchObject({ status: 'completed', end_reason: 'heartbeat_timeout' });
  });

  it('a sweep goes on chunk after chunk until a chunk comes back short', async () => {
    const ids = [shiftId];
    ids.push(
      dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture, { gameUserId: fixture.staff.bob.gameUserId })))
        .shift.id,
    );
    ctx.clock.advance(TIMEOUT_MS + 1);
    const swept = await sweepTimedOutShifts({ write: (job) => ctx.store.write(job), clock: ctx.clock, config: ctx.config, chunk: 1 });
    expect(swept).toBe(2);
    for (const id of ids) expect((await row(id)).status).toBe('completed');
  });

  it('a start after the timeout completes the stale shift and starts a new one', async () => {
    ctx.clock.advance(TIMEOUT_MS + 1);
    const res = dataOf<{ shift: { id: string; startedAt: string }; existing: boolean }>(await client.start(startBody(fixture)));
    expect(res.existing).toBe(false);
    expect(res.shift.id).not.toBe(shiftId);
    expect(res.shift.startedAt).toBe(iso(DEFAULT_NOW + TIMEOUT_MS + 1));
    expect(await row()).toMatchObject({ status: 'completed', ended_at: DEFAULT_NOW, end_reason: 'heartbeat_timeout' });
    expect((await row(res.shift.id)).status).toBe('active');
  });

  it('a start just before the timeout still returns the existing shift', async () => {
    ctx.clock.advance(TIMEOUT_MS);
    const res = dataOf<{ shift: { id: string }; existing: boolean }>(await client.start(startBody(fixture)));
    expect(res).toMatchObject({ existing: true, shift: { id: shiftId } });
  });

  it('a heartbeat after the timeout is 409 shift_not_active and completes the shift (not swept yet)', async () => {
    ctx.clock.advance(TIMEOUT_MS + 1);
    const res = await client.heartbeat(shiftId, undefined, { idempotencyKey: 'late-heartbeat' });
    expect(res.statusCode).toBe(409);
    expect(errorCode(res)).toBe('shift_not_active');
    expect(await row()).toMatchObject({ status: 'completed', ended_at: DEFAULT_NOW, end_reason: 'heartbeat_timeout' });
    const replay = await client.heartbeat(shiftId, undefined, { idempotencyKey: 'late-heartbeat' });
    expect(replay.statusCode).toBe(409);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(res.json());
  });

  it('a stop after the timeout is 409 shift_not_active and keeps endReason heartbeat_timeout', async () => {
    ctx.clock.advance(30_000);
    dataOf(await client.heartbeat(shiftId));
    ctx.clock.advance(TIMEOUT_MS + 1);
    const res = await client.stop(shiftId, { reason: 'player_left' });
    expect(res.statusCode).toBe(409);
    expect(errorCode(res)).toBe('shift_not_active');
    expect(await row()).toMatchObject({ status: 'completed', ended_at: DEFAULT_NOW + 30_000, end_reason: 'heartbeat_timeout' });
  });

  it('the active list leaves out timed-out shifts before any sweep', async () => {
    ctx.clock.advance(TIMEOUT_MS + 1);
    expect(dataOf<{ shifts: unknown[] }>(await client.active()).shifts).toEqual([]);
    expect((await row()).status).toBe('active');
  });

  it('GET of one shift applies the timeout rule first', async () => {
    ctx.clock.advance(TIMEOUT_MS + 1);
    const { shift } = dataOf<{ shift: Record<string, unknown> }>(await client.get(shiftId));
    expect(shift).toMatchObject({ status: 'completed', endReason: 'heartbeat_timeout', endedAt: iso(DEFAULT_NOW) });
    expect(shift).not.toHaveProperty('elapsedSeconds');
    expect((await row()).status).toBe('completed');
  });

  describe('background job', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('serve runs the sweep periodically', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const jobs = startBackgroundJobs({ store: ctx.store, clock: ctx.clock, config: ctx.config, log: ctx.app.log });
      try {
        ctx.clock.advance(TIMEOUT_MS + 1);
        vi.advanceTimersByTime(sweepIntervalMs(ctx.config.shiftTimeoutSeconds));
        await vi.waitFor(async () => expect((await row()).status).toBe('completed'), { timeout: 5000 });
        expect((await row()).end_reason).toBe('heartbeat_timeout');
      } finally {
        jobs.stop();
      }
    });
  });
});
