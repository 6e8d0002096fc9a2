import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDestinationClient, isPublicAddress } from '../../../src/features/webhooks/destination.ts';
import { startDispatcher } from '../../../src/features/webhooks/dispatcher.ts';
import { newId } from '../../../src/ids.ts';
import { generateWebhookSecret } from '../../../src/provisioning/webhooks.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, seed } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { addSubmission, call } from '../applications/helpers.ts';
import { eventually, Receiver, SENDERS, SILENT_LOG, testDispatcherSettings } from './receiver.ts';

/** Seeds a fixture whose workspace has one endpoint (every event type) at `path` of `receiver`. */
async function seedWithEndpoint(ctx: TestContext, receiver: Receiver, path: string) {
  const fixture = buildFixture();
  const secret = generateWebhookSecret();
  const endpointId = newId();
  fixture.workspace.webhooks = [{ id: endpointId, url: receiver.endpoint(path, secret), events: ['*'], secret }];
  await seed(ctx, fixture);
  return { fixture, secret, endpointId };
}

describe('internal addresses', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '224.0.0.1',
  ])('%s is internal', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('destination client', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });
  const options = { timeoutMs: 10_000, excerptBytes: 64 };

  it('refuses a loopback address, literal or resolved by DNS, unless private networks are allowed', async () => {
    receiver.endpoint('/x', generateWebhookSecret());
    const client = createDestinationClient({ ...options, allowPrivateNetworks: false });
    const port = new URL(receiver.baseUrl).port;
    try {
      for (const url of [`${receiver.baseUrl}/x`, `http://localhost:${port}/x`, `http://[::1]:${port}/x`]) {
        const outcome = await client.post(url, {}, '{}');
        expect(outcome.status).toBeNull();
        expect(outcome.error).toMatch(/^refused: /);
      }
    } finally {
      client.close();
    }
    expect(receiver.at('/x')).toEqual([]);
    const allowed = createDestinationClient({ ...options, allowPrivateNetworks: true });
    try {
      expect((await allowed.post(`http://localhost:${port}/x`, {}, '{}')).status).toBe(204);
    } finally {
      allowed.close();
    }
  });

  it('does not follow redirects and keeps only an excerpt of the answer', async () => {
    receiver.behaviour = () => 302;
    const client = createDestinationClient({ ...options, allowPrivateNetworks: true });
    try {
      const outcome = await client.post(`${receiver.baseUrl}/redirect`, {}, '{}');
      expect(outcome.status).toBe(302);
      expect(outcome.excerpt!.length).toBeLessThanOrEqual(64);
      expect(receiver.at('/redirect')).toHaveLength(1);
    } finally {
      client.close();
      receiver.behaviour = () => 204;
    }
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    receiver.behaviour = () => 'hang';
    const client = createDestinationClient({ timeoutMs: 300, excerptBytes: 64, allowPrivateNetworks: true });
    try {
      const outcome = await client.post(`${receiver.baseUrl}/slow`, {}, '{}');
      expect(outcome.status).toBeNull();
      expect(outcome.error).toMatch(/no answer within 300 ms/);
    } finally {
      client.close();
      receiver.behaviour = () => 204;
      receiver.releaseHanging();
    }
  });
});

const CASES = STORE_KINDS.flatMap((kind) => SENDERS.map(([where, sender]) => [kind, where, sender] as const));

describe.each(CASES)('a dispatcher that may not reach private networks (%s, sending %s)', (kind, _where, sender) => {
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

  it('records a refused attempt and sends nothing to an internal address', async () => {
    const { fixture, endpointId } = await seedWithEndpoint(ctx, receiver, '/internal');
    const settings = testDispatcherSettings({
      allowPrivateNetworks: false,
      concurrency: 4,
      perEndpointConcurrency: 2,
      retry: { firstDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    const dispatcher = startDispatcher({ store: ctx.store, clock: ctx.clock, log: SILENT_LOG, settings, sender });
    try {
      const id = await addSubmission(ctx, fixture.workspace);
      const res = await call(ctx.inject, 'accept', id, { token: await dashboardToken(REVIEWER_USER_ID), body: {} });
      expect(res.statusCode).toBe(200);
      const row = () =>
        ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirst();
      await eventually(async () => (await row())?.attempts === 1, 30_000, 'the refused attempt');
      expect(await row()).toMatchObject({ status: 'pending', last_status: null });
      expect((await row())!.last_error).toMatch(/^refused: /);
      expect(receiver.at('/internal')).toEqual([]);
    } finally {
      await dispatcher.stop();
    }
  });
});

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

  it('holds more deliveries than an endpoint may have on the wire, sends only its share, and gives all back', async () => {
    const { fixture, endpointId } = await seedWithEndpoint(ctx, receiver, '/held');
    const settings = testDispatcherSettings({ concurrency: 4, perEndpointConcurrency: 1 });
    receiver.behaviour = () => 'hang';
    const rows = () =>
      ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();
    const token = await dashboardToken(REVIEWER_USER_ID);
    for (let i = 0; i < 3; i += 1) {
      const id = await addSubmission(ctx, fixture.workspace);
      expect((await call(ctx.inject, 'accept', id, { token, body: {} })).statusCode).toBe(200);
    }
    const dispatcher = startDispatcher({ store: ctx.store, clock: ctx.clock, log: SILENT_LOG, settings, sender });
    try {
      await eventually(async () => (await rows()).every((r) => r.claimed_by !== null), 30_000, 'every delivery claimed');
      await eventually(() => receiver.at('/held').length === 1, 30_000, 'the first delivery on the wire');
      // The other two wait in this dispatcher's queue: the endpoint's one slot is taken.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.at('/held')).toHaveLength(1);
    } finally {
      await dispatcher.stop(100);
      receiver.releaseHanging();
      receiver.behaviour = () => 204;
    }
    const after = await rows();
    expect(after).toHaveLength(3);
    for (const row of after) expect(row).toMatchObject({ status: 'pending', attempts: 0, claimed_by: null, claimed_until: null });
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
    const dispatcher = startDispatcher({ store: ctx.store, clock: ctx.clock, log, settings, sender });
    const row = () =>
      ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
    try {
      const token = await dashboardToken(REVIEWER_USER_ID);
      const id = await addSubmission(ctx, fixture.workspace);
      expect((await call(ctx.inject, 'accept', id, { token, body: {} })).statusCode).toBe(200);
      await eventually(async () => (await row()).attempts === 1, 30_000, 'the failed attempt');
      ctx.clock.advance(60_000);
      await eventually(() => receiver.at('/slow').length === 2, 30_000, 'the hanging retry');
      expect((await row()).claimed_by).not.toBeNull();
    } finally {
      await dispatcher.stop(100);
      receiver.releaseHanging();
      receiver.behaviour = () => 204;
    }
    expect(await row()).toMatchObject({ status: 'pending', attempts: 1, claimed_by: null, claimed_until: null });
    expect(lines.some((line) => JSON.stringify(line).includes('will retry'))).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(secret.slice('whsec_'.length));
  });
});
