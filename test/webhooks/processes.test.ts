import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/shared/ids.ts';
import { generateWebhookSecret } from '../../src/provisioning/webhooks.ts';
import { dashboardToken, REVIEWER_USER_ID, UNIVERSE_ID } from '../helpers/fixtures.ts';
import { postgresAvailable, STORE_KINDS } from '../helpers/stores.ts';
import { killAll, startGateway } from '../reliability/serving.ts';
import { accept, deliveryStatuses, GATEWAY_ENV, world } from './processes-world.ts';
import { parseExposition } from '../helpers/prometheus.ts';
import { makeReceiverCertificate } from '../../bench/receiver-tls.ts';
import { eventually, Receiver } from './receiver.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await killAll();
  for (const step of cleanup.splice(0)) await step();
});
afterAll(killAll);

describe.each(STORE_KINDS)('webhook delivery across gateway processes (%s)', (kind) => {
  it('kill -9 with deliveries in flight, then restart: every event is delivered', async () => {
    const count = 6;
    const { database, receiver, submissionIds } = await world(kind, count);
    cleanup.push(() => receiver.close(), () => database.drop());
    const env = { ...GATEWAY_ENV, WEBHOOK_LEASE_MS: '1500' };
    const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 3_600_000 });
    receiver.behaviour = () => 'hang';
    const first = await startGateway({ name: 'first', databaseUrl: database.url, env });
    const eventIds: string[] = [];
    for (const id of submissionIds) eventIds.push(await accept(first, id, token));
    // Every delivery is on the wire (claimed, unanswered) when the process dies.
    await receiver.waitFor((r) => new Set(r.at('/hook').map((got) => got.headers['webhook-id'])).size === count, 'every delivery');
    await first.crash();
    receiver.releaseHanging();
    receiver.behaviour = () => 204;
    expect((await deliveryStatuses(database)).every((s) => s === 'pending')).toBe(true);

    await startGateway({ name: 'second', databaseUrl: database.url, env });
    // Due again once the dead process's leases lapse (1.5 s after its claims).
    await receiver.waitFor((r) => new Set(r.acknowledged('/hook')).size === count, 'every event acknowledged');
    await eventually(async () => (await deliveryStatuses(database)).every((s) => s === 'delivered'), 'delivered rows');
    const acknowledged = receiver.at('/hook').filter((r) => r.answered === 204);
    expect(new Set(acknowledged.map((r) => r.headers['webhook-id']))).toEqual(new Set(eventIds));
    expect(acknowledged.every((r) => r.verified)).toBe(true);
  }, 180_000);

  it('a serving process counts its delivery attempts by result in /metrics', async () => {
    const { database, receiver, submissionIds } = await world(kind, 1);
    cleanup.push(() => receiver.close(), () => database.drop());
    const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 3_600_000 });
    receiver.behaviour = ({ count }) => (count === 1 ? 500 : 204);
    const gateway = await startGateway({ name: 'metrics', databaseUrl: database.url, env: GATEWAY_ENV });
    const attempts = async () => {
      const res = await fetch(`${gateway.baseUrl}/metrics`);
      expect(res.status).toBe(200);
      const metrics = parseExposition(await res.text());
      expect(metrics.types.get('workspace_gateway_webhook_attempts_total')).toBe('counter');
      const of = (result: string) => metrics.value('workspace_gateway_webhook_attempts_total', { result });
      return { delivered: of('delivered'), retrying: of('retrying'), failed: of('failed') };
    };
    expect(await attempts()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    await accept(gateway, submissionIds[0]!, token);
    await receiver.waitFor((r) => r.acknowledged('/hook').length === 1, 'the retry');
    await eventually(async () => (await deliveryStatuses(database)).every((s) => s === 'delivered'), 'the delivered row');
    expect(receiver.at('/hook').map((r) => r.answered)).toEqual([500, 204]);
    await eventually(async () => (await attempts()).delivered === 1, 'the counter');
    expect(await attempts()).toEqual({ delivered: 1, retrying: 1, failed: 0 });
  }, 60_000);

  it("an event is sent when the write that enqueued it commits, not at the outbox's next poll", async () => {
    const { database, receiver, submissionIds } = await world(kind, 2);
    cleanup.push(() => receiver.close(), () => database.drop());
    const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 3_600_000 });
    // The outbox is polled once at start, then once a minute (the longest interval the setting allows).
    const env = { ...GATEWAY_ENV, WEBHOOK_POLL_INTERVAL_MS: '60000' };
    const gateway = await startGateway({ name: 'nudged', databaseUrl: database.url, env });
    for (const [index, submissionId] of submissionIds.entries()) {
      const eventId = await accept(gateway, submissionId, token);
      const accepted = Date.now();
      await receiver.waitFor((r) => r.acknowledged('/hook').includes(eventId), `event ${index + 1}`);
      // Well within the poll's minute (the receiver's wait gives up after 5 s).
      expect(Date.now() - accepted).toBeLessThan(5_000);
    }
  }, 60_000);

  it("a shift the timeout sweep ends is sent when the sweep's write commits, not at the outbox's next poll", async () => {
    const { apiKey, gameUserId, database, receiver } = await world(kind, 0);
    cleanup.push(() => receiver.close(), () => database.drop());
    // Shifts time out after 2 s (the sweep runs every second); the outbox is polled once at start, then once a minute.
    const env = { ...GATEWAY_ENV, WEBHOOK_POLL_INTERVAL_MS: '60000', SHIFT_TIMEOUT_SECONDS: '2' };
    const gateway = await startGateway({ name: 'swept', databaseUrl: database.url, env });
    const res = await fetch(`${gateway.baseUrl}/v1/activity/shifts/start`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'idempotency-key': newId(),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ gameUserId, universeId: UNIVERSE_ID, placeId: '1', serverId: 'srv-1' }),
    });
    expect(res.status).toBe(200);
    const ended = (r: Receiver) => r.at('/hook').some((got) => (got.payload as { type?: string } | undefined)?.type === 'activity.shift.ended');
    // The timeout (2 s) and a sweep (1 s) come first; the receiver's wait then gives up after 5 s, well within the
    // poll's minute.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await receiver.waitFor(ended, 'the shift-ended event');
  }, 60_000);
});

describe.each(STORE_KINDS)('webhook delivery over HTTPS (%s)', (kind) => {
  it('delivers to a receiver whose certificate the gateway trusts, and never to one it does not', async () => {
    const trusted = makeReceiverCertificate();
    const { database, receiver, submissionIds, endpointId } = await world(kind, 1, { tls: trusted });
    // A second endpoint whose certificate is valid for the address but signed by nobody the gateway trusts.
    const untrusted = await Receiver.start({ tls: makeReceiverCertificate() });
    cleanup.push(() => receiver.close(), () => untrusted.close(), () => database.drop());
    const secret = generateWebhookSecret();
    const store = database.open();
    try {
      const now = Date.now();
      const endpoint = await store.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirstOrThrow();
      await store.db
        .insertInto('webhook_endpoints')
        .values({ ...endpoint, id: newId(), url: untrusted.endpoint('/hook', secret), secret, created_at: now, updated_at: now })
        .execute();
    } finally {
      await store.close();
    }
    const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 3_600_000 });
    // The process trusts what NODE_EXTRA_CA_CERTS names, as an operator's private CA would be trusted.
    const gateway = await startGateway({ name: 'tls', databaseUrl: database.url, env: { ...GATEWAY_ENV, NODE_EXTRA_CA_CERTS: trusted.certFile } });
    const eventId = await accept(gateway, submissionIds[0]!, token);

    await receiver.waitFor((r) => r.acknowledged('/hook').length === 1, 'the delivery over HTTPS');
    const [got] = receiver.at('/hook');
    expect(got?.verified).toBe(true);
    expect(got?.headers['webhook-id']).toBe(eventId);
    const failedAttempt = async () => {
      const probe = database.open();
      try {
        return await probe.db
          .selectFrom('webhook_attempts')
          .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
          .select(['webhook_attempts.status', 'webhook_attempts.error', 'webhook_deliveries.status as deliveryStatus'])
          .where('webhook_deliveries.endpoint_id', '!=', endpointId)
          .executeTakeFirst();
      } finally {
        await probe.close();
      }
    };
    await eventually(async () => (await failedAttempt()) !== undefined, 'the attempt at the untrusted receiver');
    const attempt = await failedAttempt();
    expect(attempt).toMatchObject({ status: null, deliveryStatus: 'pending' });
    expect(attempt?.error).toMatch(/certificate/i);
    // The handshake failed, so the receiver never read a request.
    expect(untrusted.received).toHaveLength(0);
    expect(await gateway.stop()).toBe(0);
  }, 60_000);
});

describe.runIf(postgresAvailable)('two gateway processes on one PostgreSQL schema', () => {
  it('deliver each event once', async () => {
    const count = 40;
    const { database, receiver, submissionIds } = await world('postgres', count);
    cleanup.push(() => receiver.close(), () => database.drop());
    const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 3_600_000 });
    const gateways = await Promise.all([
      startGateway({ name: 'a', databaseUrl: database.url, env: GATEWAY_ENV }),
      startGateway({ name: 'b', databaseUrl: database.url, env: GATEWAY_ENV }),
    ]);
    const eventIds = await Promise.all(submissionIds.map((id, i) => accept(gateways[i % 2]!, id, token)));
    await receiver.waitFor((r) => new Set(r.acknowledged('/hook')).size === count, 'every event acknowledged');
    await eventually(async () => (await deliveryStatuses(database)).every((s) => s === 'delivered'), 'delivered rows');
    // Once both have stopped (each gives back what it still held), nothing more can arrive.
    expect(await Promise.all(gateways.map((gateway) => gateway.stop()))).toEqual([0, 0]);
    const ids = receiver.at('/hook').map((r) => r.headers['webhook-id'] as string);
    expect(ids).toHaveLength(count);
    expect(new Set(ids)).toEqual(new Set(eventIds));
  }, 180_000);
});
