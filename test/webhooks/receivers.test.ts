import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../../src/webhooks/dispatcher.ts';
import { writeWebhookEvents } from '../../src/webhooks/outbox.ts';
import { DEFAULT_RETRY_POLICY } from '../../src/webhooks/retry.ts';
import { startInlineSender } from '../../src/webhooks/sender.ts';
import { newId } from '../../src/shared/ids.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { capped, deliverDue, seedWithEndpoint, testDispatcher } from './harness.ts';
import { ManualTimer } from './manual-timer.ts';
import { Receiver, SENDERS, testDispatcherSettings } from './receiver.ts';

const HOOK = '/hook';
const FIRST_DELAY_MS = 1_000;
const TIMEOUT_MS = 10_000;

/**
 * Receivers that are slow, drop their kept-alive connections, or go down and come back, on both stores, with
 * the attempts each leaves in the outbox. The receiver's delays, the requests' deadlines and the dispatcher's
 * pauses all run on one timer the test moves; retries fall due on the app's manual clock.
 */
describe.each(STORE_KINDS)('receivers that are slow, drop connections, or go down and come back (%s)', (kind) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let timer: ManualTimer;
  let workspaceId: string;
  let endpointId: string;
  const dispatchers: Dispatcher[] = [];

  /** A dispatcher sending on the event loop, its requests' deadlines on the test's timer. */
  function dispatcher(overrides: Parameters<typeof testDispatcherSettings>[0] = {}): Dispatcher {
    const made = testDispatcher(ctx, {
      timer,
      sender: (options) => startInlineSender(options, timer),
      settings: testDispatcherSettings({
        concurrency: 4,
        perEndpointConcurrency: 2,
        timeoutMs: TIMEOUT_MS,
        retry: { firstDelayMs: FIRST_DELAY_MS, maxDelayMs: 60_000 },
        ...overrides,
      }),
    }).dispatcher;
    dispatchers.push(made);
    return made;
  }

  /** `count` events for the endpoint, recorded now; their ids. */
  async function events(count: number): Promise<string[]> {
    const recorded = Array.from({ length: count }, () => ({
      id: newId(),
      type: 'activity.shift.started' as const,
      workspaceId,
      environment: 'test' as const,
      createdAt: ctx.clock.now(),
      data: {},
    }));
    await ctx.store.write((trx) => writeWebhookEvents(trx, recorded, new Map([[workspaceId, [endpointId]]])));
    return recorded.map((event) => event.id);
  }

  const deliveries = () =>
    ctx.store.db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'status', 'attempts', 'next_attempt_at', 'last_status', 'last_error'])
      .where('endpoint_id', '=', endpointId)
      .execute();
  const attempts = () =>
    ctx.store.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['d.event_id', 'a.attempt', 'a.status', 'a.error'])
      .where('d.endpoint_id', '=', endpointId)
      .orderBy('a.attempt')
      .execute();
  const pendingNotDue = async () =>
    (await deliveries()).filter((d) => d.status === 'pending' && Number(d.next_attempt_at) > ctx.clock.now()).map((d) => d.event_id);

  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  beforeEach(async () => {
    // What an earlier test left pending (another endpoint, a closed receiver) would be claimed with this one's.
    await ctx.store.write(async (trx) => {
      await trx.deleteFrom('webhook_attempts').execute();
      await trx.deleteFrom('webhook_deliveries').execute();
    });
    timer = new ManualTimer();
    receiver = await Receiver.start({ timer });
    ctx.clock.set(DEFAULT_NOW);
    const seeded = await seedWithEndpoint(ctx, receiver, HOOK);
    workspaceId = seeded.fixture.ids.workspaceId;
    endpointId = seeded.endpointId;
  });
  afterEach(async () => {
    for (const made of dispatchers.splice(0)) await capped(made.stop(0), 'stopping');
    await receiver.close();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('a slow receiver: each answer within the timeout counts, however long the deliveries queued behind each other', async () => {
    receiver.behaviour = () => ({ status: 204, afterMs: TIMEOUT_MS - 1_000 });
    const ids = await events(6);
    const sending = dispatcher();
    expect(await sending.claim()).toMatchObject({ claimed: 6 });
    // Two on the wire at a time: three rounds of 9 s, 27 s in all.
    for (let round = 1; round <= 3; round += 1) {
      await receiver.waitFor((r) => r.at(HOOK).length === round * 2, `round ${round}`);
      await timer.advance(TIMEOUT_MS - 1_000);
    }
    await capped(sending.settled(), 'the last answers recorded');
    expect((await deliveries()).map((d) => [d.status, d.attempts, d.last_status])).toEqual(ids.map(() => ['delivered', 1, 204]));
    expect((await attempts()).map((a) => [a.attempt, a.status, a.error])).toEqual(ids.map(() => [1, 204, null]));
  });

  it('a receiver slower than the timeout: the attempt fails, is recorded, and is retried', async () => {
    receiver.behaviour = ({ count }) => (count === 1 ? { status: 204, afterMs: TIMEOUT_MS + 1_000 } : 204);
    const [id] = await events(1);
    const sending = dispatcher();
    await sending.claim();
    await receiver.waitFor((r) => r.at(HOOK).length === 1, 'the request');
    await timer.advance(TIMEOUT_MS + 1_000);
    await capped(sending.settled(), 'the timeout recorded');
    expect(await deliveries()).toMatchObject([{ status: 'pending', attempts: 1, last_status: null, last_error: `no answer within ${TIMEOUT_MS} ms` }]);
    ctx.clock.advance(FIRST_DELAY_MS);
    expect(await deliverDue(sending)).toBe(1);
    expect(await deliveries()).toMatchObject([{ event_id: id, status: 'delivered', attempts: 2, last_status: 204 }]);
  });

  it('a receiver that closes kept-alive connections as they are reused: no delivery fails, each is recorded once', async () => {
    receiver.connections = 'drop-reused';
    const ids = await events(6);
    // One at a time, so each delivery finds the connection the one before it left in the pool.
    expect(await deliverDue(dispatcher({ perEndpointConcurrency: 1 }))).toBe(6);
    expect(receiver.received.filter((r) => r.answered === 'dropped').length).toBeGreaterThanOrEqual(3);
    expect(new Set(receiver.acknowledged(HOOK))).toEqual(new Set(ids));
    expect((await attempts()).map((a) => [a.attempt, a.status, a.error])).toEqual(ids.map(() => [1, 204, null]));
  });

  it('a receiver down, then back: what failed meanwhile goes out with the first success, not on its backoff', async () => {
    receiver.behaviour = () => 503;
    const sending = dispatcher();
    const failed = await events(4);
    // Three failed attempts each: the next ones are 2 to 4 s away.
    for (const wait of [0, FIRST_DELAY_MS, 2 * FIRST_DELAY_MS]) {
      ctx.clock.advance(wait);
      expect(await deliverDue(sending)).toBe(4);
    }
    expect(await pendingNotDue()).toHaveLength(4);
    receiver.behaviour = () => 204;
    const [fresh] = await events(1);
    // The new event's success brings the four forward, in the transaction that records it: all go out now.
    expect(await deliverDue(sending)).toBe(5);
    expect(new Set(receiver.acknowledged(HOOK))).toEqual(new Set([...failed, fresh]));
    const rows = await deliveries();
    expect(rows.every((d) => d.status === 'delivered')).toBe(true);
    expect(rows.filter((d) => d.event_id !== fresh).map((d) => d.attempts)).toEqual([4, 4, 4, 4]);
    const recorded = await attempts();
    expect(recorded.filter((a) => a.status === 503)).toHaveLength(12);
    expect(recorded.filter((a) => a.status === 204)).toHaveLength(5);
    expect(recorded.filter((a) => a.status === null)).toEqual([]);
  });

  it('with no new event, the first retry that succeeds brings the rest forward', async () => {
    receiver.behaviour = () => 503;
    const sending = dispatcher();
    const early = await events(3);
    for (const wait of [0, FIRST_DELAY_MS, 2 * FIRST_DELAY_MS]) {
      ctx.clock.advance(wait);
      await deliverDue(sending);
    }
    // Failed once, now: due again within a second, before the three (2 to 4 s away).
    const [late] = await events(1);
    expect(await deliverDue(sending)).toBe(1);
    receiver.behaviour = () => 204;
    ctx.clock.advance(FIRST_DELAY_MS);
    // The endpoint has been down for the outage time, so one of the three is kept due as a probe; the others wait.
    expect((await pendingNotDue()).filter((id) => early.includes(id)).length).toBeGreaterThanOrEqual(2);
    expect(await deliverDue(sending)).toBe(4);
    expect(new Set(receiver.acknowledged(HOOK))).toEqual(new Set([...early, late]));
  });

  it('after a restart, a retry that succeeds brings the rest forward: the new dispatcher saw none fail', async () => {
    receiver.behaviour = () => 503;
    const before = dispatcher();
    const early = await events(3);
    for (const wait of [0, FIRST_DELAY_MS, 2 * FIRST_DELAY_MS]) {
      ctx.clock.advance(wait);
      await deliverDue(before);
    }
    const [late] = await events(1);
    await deliverDue(before);
    await before.stop(0);
    receiver.behaviour = () => 204;
    ctx.clock.advance(FIRST_DELAY_MS);
    expect(await deliverDue(dispatcher())).toBe(4);
    expect(new Set(receiver.acknowledged(HOOK))).toEqual(new Set([...early, late]));
  });

  it('after ten minutes down, with the default retry delays, everything pending arrives within 60 s of the recovery', async () => {
    const STEP_MS = 5_000;
    const OUTAGE_MS = 10 * 60_000;
    receiver.behaviour = () => 503;
    const sending = dispatcher({ retry: DEFAULT_RETRY_POLICY });
    const failed = await events(5);
    const downAt = ctx.clock.now();
    const recoveredAt = downAt + OUTAGE_MS;
    // Once the endpoint has been down a while, some delivery is always due within 30 s: the probe.
    let longestWait = 0;
    while (ctx.clock.now() < recoveredAt) {
      await deliverDue(sending);
      const soonest = Math.min(...(await deliveries()).map((d) => Number(d.next_attempt_at)));
      if (ctx.clock.now() - downAt >= 120_000) longestWait = Math.max(longestWait, soonest - ctx.clock.now());
      ctx.clock.advance(STEP_MS);
    }
    expect(longestWait).toBeLessThanOrEqual(30_000);
    // On their own backoff, some would wait minutes more (the fifth retry comes 4 to 8 minutes after the fourth).
    const waiting = (await deliveries()).map((d) => Number(d.next_attempt_at) - recoveredAt);
    expect(Math.max(...waiting)).toBeGreaterThan(60_000);
    // A probe every 30 s while down: far fewer attempts than steps, more than the backoff alone makes.
    const duringOutage = (await attempts()).length;
    expect(duringOutage).toBeLessThanOrEqual(5 * 6 + OUTAGE_MS / 30_000);

    receiver.behaviour = () => 204;
    while (receiver.acknowledged(HOOK).length < failed.length && ctx.clock.now() <= recoveredAt + 60_000) {
      await deliverDue(sending);
      ctx.clock.advance(STEP_MS);
    }
    expect(new Set(receiver.acknowledged(HOOK))).toEqual(new Set(failed));
    expect(ctx.clock.now() - recoveredAt).toBeLessThanOrEqual(60_000);
    expect((await deliveries()).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('an endpoint that refuses one event while accepting others keeps that event on its backoff', async () => {
    const [refused] = await events(1);
    receiver.behaviour = ({ webhookId }) => (webhookId === refused ? 500 : 204);
    const sending = dispatcher();
    await events(2);
    expect(await deliverDue(sending)).toBe(3);
    // Successes keep coming, each well within the first retry delay of the failure before it.
    for (const wait of [FIRST_DELAY_MS / 5, FIRST_DELAY_MS / 5]) {
      ctx.clock.advance(wait);
      await events(1);
      expect(await deliverDue(sending)).toBe(1);
    }
    expect(await pendingNotDue()).toEqual([refused]);
    expect(receiver.at(HOOK).filter((r) => r.headers['webhook-id'] === refused)).toHaveLength(1);
  });
});

describe.each(SENDERS)('a receiver that closes kept-alive connections, sending %s', (_where, sender) => {
  let ctx: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  it('after each answer, or as one is reused: every delivery is recorded once, none failed', async () => {
    const { fixture, endpointId } = await seedWithEndpoint(ctx, receiver, '/closing');
    const workspaceId = fixture.ids.workspaceId;
    const { dispatcher } = testDispatcher(ctx, { sender, settings: testDispatcherSettings({ concurrency: 4, perEndpointConcurrency: 2 }) });
    try {
      for (const mode of ['close-after-answer', 'drop-reused'] as const) {
        receiver.connections = mode;
        const recorded = Array.from({ length: 12 }, () => ({
          id: newId(),
          type: 'activity.shift.ended' as const,
          workspaceId,
          environment: 'live' as const,
          createdAt: ctx.clock.now(),
          data: {},
        }));
        await ctx.store.write((trx) => writeWebhookEvents(trx, recorded, new Map([[workspaceId, [endpointId]]])));
        expect(await deliverDue(dispatcher)).toBe(12);
      }
      const rows = await ctx.store.db
        .selectFrom('webhook_attempts as a')
        .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .select(['a.attempt', 'a.status'])
        .where('d.endpoint_id', '=', endpointId)
        .execute();
      expect(rows).toHaveLength(24);
      expect(rows.every((row) => row.attempt === 1 && row.status === 204)).toBe(true);
      expect(receiver.acknowledged('/closing')).toHaveLength(24);
    } finally {
      await dispatcher.stop(0);
    }
  });
});
