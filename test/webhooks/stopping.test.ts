import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { addSubmission, call } from '../features/applications/helpers.ts';
import { capped, deliverDue, seedWithEndpoint, testDispatcher } from './harness.ts';
import { Receiver, SENDERS, testDispatcherSettings, threadsStarted } from './receiver.ts';

const CASES = STORE_KINDS.flatMap((kind) => SENDERS.map(([where, sender]) => [kind, where, sender] as const));

describe.each(CASES)('stopping a dispatcher (%s, sending %s)', (kind, _where, sender) => {
  let ctx: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await Receiver.start();
    ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  async function accept(fixture: Awaited<ReturnType<typeof seedWithEndpoint>>['fixture']): Promise<void> {
    const id = await addSubmission(ctx, fixture.workspace);
    const res = await call(ctx.inject, 'accept', id, { token: await dashboardToken(REVIEWER_USER_ID), body: {} });
    expect(res.statusCode).toBe(200);
  }

  it('holds more deliveries than an endpoint may have on the wire, sends only its share, and gives all back', async () => {
    const { fixture, endpointId } = await seedWithEndpoint(ctx, receiver, '/held');
    const { dispatcher } = testDispatcher(ctx, { sender, settings: testDispatcherSettings({ concurrency: 4, perEndpointConcurrency: 1 }) });
    receiver.behaviour = () => 'hang';
    const rows = () =>
      ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();
    for (let i = 0; i < 3; i += 1) await accept(fixture);
    await threadsStarted();
    try {
      expect(await dispatcher.claim()).toMatchObject({ claimed: 3 });
      expect((await rows()).every((r) => r.claimed_by !== null)).toBe(true);
      await receiver.waitFor((r) => r.at('/held').length === 1, 'the first delivery on the wire');
      // The other two wait in this dispatcher's queue: the endpoint's one slot is taken, and only an answer
      // (none comes) would free it.
      expect(receiver.at('/held')).toHaveLength(1);
    } finally {
      await capped(dispatcher.stop(0), 'stopping');
      receiver.releaseHanging();
      receiver.behaviour = () => 204;
    }
    expect(receiver.at('/held')).toHaveLength(1);
    const after = await rows();
    expect(after).toHaveLength(3);
    for (const row of after) expect(row).toMatchObject({ status: 'pending', attempts: 0, claimed_by: null, claimed_until: null });
    // Due for any dispatcher now: out of the next test's way.
    await ctx.store.write((trx) => trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', endpointId).execute());
  });

  it('gives back a delivery still on the wire, unattempted; no log line carries the secret', async () => {
    const { fixture, secret, endpointId } = await seedWithEndpoint(ctx, receiver, '/slow');
    const lines: unknown[] = [];
    const log = {
      info: (o: object, m: string) => lines.push([o, m]),
      warn: (o: object, m: string) => lines.push([o, m]),
      error: (o: object, m: string) => lines.push([o, m]),
    };
    const settings = testDispatcherSettings({
      concurrency: 4,
      perEndpointConcurrency: 2,
      backlogLogIntervalMs: 1,
      retry: { firstDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    receiver.behaviour = ({ count }) => (count === 1 ? 500 : 'hang');
    const { dispatcher } = testDispatcher(ctx, { sender, settings, log });
    const row = () =>
      ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
    try {
      await accept(fixture);
      expect(await deliverDue(dispatcher)).toBe(1);
      expect(await row()).toMatchObject({ status: 'pending', attempts: 1, last_status: 500 });
      ctx.clock.advance(60_000);
      expect(await dispatcher.claim()).toMatchObject({ claimed: 1 });
      await receiver.waitFor((r) => r.at('/slow').length === 2, 'the hanging retry');
      expect((await row()).claimed_by).not.toBeNull();
    } finally {
      await capped(dispatcher.stop(0), 'stopping');
      receiver.releaseHanging();
      receiver.behaviour = () => 204;
    }
    expect(await row()).toMatchObject({ status: 'pending', attempts: 1, claimed_by: null, claimed_until: null });
    expect(lines.some((line) => JSON.stringify(line).includes('will retry'))).toBe(true);
    expect(lines.some((line) => JSON.stringify(line).includes('webhook deliveries pending'))).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(secret.slice('whsec_'.length));
  });
});
