/**
 * The example webhook receiver (clients/typescript/examples/webhook-receiver.ts) against real deliveries on both
 * stores: it announces each event once, however often it is delivered; refuses a request it cannot verify; and
 * answers 500 when announcing fails, so the gateway delivers the event again.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookReceiver } from '../../../clients/typescript/examples/webhook-receiver.ts';
import type { Dispatcher } from '../../../src/webhooks/dispatcher.ts';
import { newId } from '../../../src/shared/ids.ts';
import { generateWebhookSecret } from '../../../src/provisioning/webhooks.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { call } from '../../features/applications/helpers.ts';
import { intakeBody, provisionWebhooks, seedIntakeFixture, submit, type IntakeFixture } from '../../features/applications/intake-helpers.ts';
import { dataOf, shiftClient, startBody } from '../../features/activity/shifts/shift-client.ts';
import { deliverDue, testDispatcher } from '../../webhooks/harness.ts';
import { testDispatcherSettings } from '../../webhooks/receiver.ts';

describe.each(STORE_KINDS)('the example webhook receiver (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: IntakeFixture;
  let dispatcher: Dispatcher;
  let server: Server;
  let url: string;
  const secret = generateWebhookSecret();
  const posted: string[] = [];
  /** How many announcements fail before they succeed again. */
  let failures = 0;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { env: { SHIFT_TIMEOUT_SECONDS: '3600' } });
    fixture = await seedIntakeFixture(ctx);
    server = webhookReceiver(secret, async (message) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('the chat platform is down');
      }
      posted.push(message);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway-events`;
    await provisionWebhooks(ctx, fixture, [{ id: newId(), url, events: ['*'], secret }]);
    ({ dispatcher } = testDispatcher(ctx, { settings: testDispatcherSettings({ retry: { firstDelayMs: 50, maxDelayMs: 50 } }) }));
  });

  afterAll(async () => {
    await dispatcher?.stop(0);
    await new Promise((resolve) => server?.close(resolve));
    await ctx?.close();
  });

  it('announces shifts and applications once each, and nothing for review steps', async () => {
    ctx.clock.set(DEFAULT_NOW);
    const shifts = shiftClient(ctx, fixture.keys.live.secret);
    const { shift } = dataOf<{ shift: { id: string } }>(await shifts.start(startBody(fixture, { serverId: 'srv-eu-1' })));
    ctx.clock.advance(25 * 60_000);
    dataOf(await shifts.heartbeat(shift.id, { serverId: 'srv-eu-1' }));
    dataOf(await shifts.stop(shift.id, { reason: 'player_left' }));
    const res = await submit(ctx.inject, fixture.keys.test.secret, fixture.form.id, intakeBody());
    const submissionId = (res.json() as { data: { submission: { id: string } } }).data.submission.id;
    const token = await dashboardToken(REVIEWER_USER_ID);
    expect((await call(ctx.inject, 'mark-under-review', submissionId, { token })).statusCode).toBe(200);
    expect((await call(ctx.inject, 'accept', submissionId, { token, body: {} })).statusCode).toBe(200);
    await deliverDue(dispatcher);

    const alice = fixture.staff.alice.displayName;
    // Deliveries of different events go concurrently: in any order.
    expect([...posted].sort()).toEqual(
      [
        `${alice} started a shift on server srv-eu-1.`,
        `${alice} ended a shift of 25 min.`,
        `New application from Bob to ${fixture.form.name}.`,
        `Application ${submissionId} was accepted.`,
      ].sort(),
    );
    const delivered = await ctx.store.db.selectFrom('webhook_deliveries').select('status').execute();
    expect(delivered.map((d) => d.status)).toEqual(Array(delivered.length).fill('delivered'));
    expect(delivered).toHaveLength(5);
  });

  it('announces a redelivered event only once, and refuses what it cannot verify', async () => {
    posted.length = 0;
    const [event] = await ctx.store.db.selectFrom('webhook_events').select('id').orderBy('id').limit(1).execute();
    const redeliver = await ctx.store.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: ctx.clock.now() })
      .where('event_id', '=', event!.id)
      .executeTakeFirst();
    expect(Number(redeliver.numUpdatedRows)).toBe(1);
    await deliverDue(dispatcher);
    expect(posted).toEqual([]);

    const unsigned = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"x"}' });
    expect(unsigned.status).toBe(400);
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'webhook-id': newId(), 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: '{}',
    });
    expect(forged.status).toBe(400);
    expect(posted).toEqual([]);
  });

  it('answers 500 when announcing fails, and the gateway\'s retry announces it', async () => {
    posted.length = 0;
    failures = 1;
    const shifts = shiftClient(ctx, fixture.keys.live.secret);
    dataOf(await shifts.start(startBody(fixture, { serverId: 'srv-us-2' })));
    await deliverDue(dispatcher);
    expect(posted).toEqual([]);
    const [attempt] = await ctx.store.db.selectFrom('webhook_deliveries').select(['status', 'last_status']).where('status', '=', 'pending').execute();
    expect(attempt).toEqual({ status: 'pending', last_status: 500 });
    ctx.clock.advance(60_000);
    await deliverDue(dispatcher);
    expect(posted).toEqual([`${fixture.staff.alice.displayName} started a shift on server srv-us-2.`]);
  });
});
