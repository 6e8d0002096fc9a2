import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_GATHER_MS, type Dispatcher, type DispatcherLog } from '../../src/webhooks/dispatcher.ts';
import { writeWebhookEvents } from '../../src/webhooks/outbox.ts';
import { RECORD_FLUSH_MS } from '../../src/webhooks/results.ts';
import { newId } from '../../src/shared/ids.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { capped, seedWithEndpoint, testDispatcher } from './harness.ts';
import { ManualTimer } from './manual-timer.ts';
import { Receiver, testDispatcherSettings } from './receiver.ts';

const POLL_MS = 200;
const HOOK = '/loop';

/**
 * The loop a serving instance runs: claim, pause, claim again. Every pause is on the test's timer, so each test
 * sees exactly which wait the loop is in and moves past it when it chooses.
 */
describe.each(STORE_KINDS)('the dispatcher loop (%s)', (kind) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let timer: ManualTimer;
  let workspaceId: string;
  let endpointId: string;
  let running: Dispatcher | null = null;
  const lines: Array<[string, object]> = [];
  const log: DispatcherLog = {
    info: (o, m) => lines.push([m, o]),
    warn: (o, m) => lines.push([m, o]),
    error: (o, m) => lines.push([m, o]),
  };

  function start(overrides: Parameters<typeof testDispatcherSettings>[0] = {}): Dispatcher {
    running = testDispatcher(ctx, { timer, log, settings: testDispatcherSettings({ pollIntervalMs: POLL_MS, ...overrides }) }).dispatcher;
    return running.start();
  }

  async function events(count: number): Promise<void> {
    const recorded = Array.from({ length: count }, () => ({
      id: newId(),
      type: 'activity.shift.started' as const,
      workspaceId,
      environment: 'test' as const,
      createdAt: ctx.clock.now(),
      data: {},
    }));
    await ctx.store.write((trx) => writeWebhookEvents(trx, recorded, new Map([[workspaceId, [endpointId]]])));
  }

  const rows = () =>
    ctx.store.db.selectFrom('webhook_deliveries').select(['status', 'attempts', 'claimed_by']).where('endpoint_id', '=', endpointId).execute();

  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  beforeEach(async () => {
    timer = new ManualTimer();
    receiver = await Receiver.start({ timer });
    ctx.clock.set(DEFAULT_NOW);
    lines.length = 0;
    await ctx.store.write(async (trx) => {
      await trx.deleteFrom('webhook_attempts').execute();
      await trx.deleteFrom('webhook_deliveries').execute();
    });
    const seeded = await seedWithEndpoint(ctx, receiver, HOOK);
    workspaceId = seeded.fixture.ids.workspaceId;
    endpointId = seeded.endpointId;
  });
  afterEach(async () => {
    await capped(running?.stop(0) ?? Promise.resolve(), 'stopping');
    running = null;
    await receiver.close();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('polls an idle outbox once per interval; results wait RECORD_FLUSH_MS to be recorded together', async () => {
    const dispatcher = start();
    await timer.armed(POLL_MS);
    await events(1);
    // Nothing is claimed before the interval has passed.
    expect(receiver.received).toEqual([]);
    expect((await rows())[0]!.claimed_by).toBeNull();
    await timer.advance(POLL_MS);
    await receiver.waitFor((r) => r.at(HOOK).length === 1, 'the delivery');
    // The claim took everything due: the next one gathers what comes for a moment; the result waits for others.
    await timer.armed(CLAIM_GATHER_MS);
    await timer.armed(RECORD_FLUSH_MS);
    expect(await rows()).toMatchObject([{ status: 'pending', attempts: 0 }]);
    await timer.advance(RECORD_FLUSH_MS);
    await capped(dispatcher.settled(), 'the result recorded');
    expect(await rows()).toMatchObject([{ status: 'delivered', attempts: 1, claimed_by: null }]);
    // Then back to polling: nothing else is due.
    await timer.advance(CLAIM_GATHER_MS);
    await timer.armed(POLL_MS);
  });

  it('a nudge (deliveries committed by this process) ends the idle pause at once', async () => {
    const dispatcher = start();
    await timer.armed(POLL_MS);
    await events(1);
    dispatcher.nudge();
    // The timer never moves: the poll's pause does not end by itself.
    await receiver.waitFor((r) => r.at(HOOK).length === 1, 'the delivery');
    // The claim took it: the loop gathers for a moment, as after any claim.
    await timer.armed(CLAIM_GATHER_MS);
  });

  it('a claim that filled every slot goes on as soon as one frees, without waiting for the interval', async () => {
    // One slot, four held: the fifth delivery is claimed once the first is answered.
    await events(5);
    start({ concurrency: 1, perEndpointConcurrency: 1 });
    // The timer never moves: no pause of the loop ever ends by itself.
    await receiver.waitFor((r) => r.acknowledged(HOOK).length === 5, 'five deliveries through one slot');
  });

  it('stopping lets what is on the wire finish within the grace period, then gives the rest back', async () => {
    receiver.behaviour = ({ count }) => (count === 1 ? { status: 204, afterMs: 500 } : 'hang');
    await events(2);
    const dispatcher = start({ concurrency: 2, perEndpointConcurrency: 2 });
    await receiver.waitFor((r) => r.at(HOOK).length === 2, 'both deliveries on the wire');
    const stopping = dispatcher.stop(1_000);
    await timer.armed(1_000);
    // The first answer comes within the grace period and is recorded; the second never does.
    await timer.advance(500);
    await timer.armed(RECORD_FLUSH_MS);
    await timer.advance(500);
    await capped(stopping, 'stopping');
    running = null;
    expect((await rows()).map((r) => [r.status, r.attempts, r.claimed_by]).sort()).toEqual([
      ['delivered', 1, null],
      ['pending', 0, null],
    ]);
    receiver.releaseHanging();
  });

  it('logs the backlog at most once per interval while deliveries are pending', async () => {
    receiver.behaviour = () => 503;
    await events(2);
    const { dispatcher } = testDispatcher(ctx, { timer, log, settings: testDispatcherSettings({ retry: { firstDelayMs: 600_000, maxDelayMs: 600_000 } }) });
    running = dispatcher;
    const backlog = () => lines.filter(([message]) => message === 'webhook deliveries pending').map(([, fields]) => fields);
    await dispatcher.claim();
    await capped(dispatcher.settled(), 'the failures recorded');
    ctx.clock.advance(59_000);
    await dispatcher.claim();
    expect(backlog()).toEqual([{ pending: 2, oldestAgeSeconds: 0 }]);
    ctx.clock.advance(1_000);
    await dispatcher.claim();
    expect(backlog()).toEqual([
      { pending: 2, oldestAgeSeconds: 0 },
      { pending: 2, oldestAgeSeconds: 60 },
    ]);
  });
});
