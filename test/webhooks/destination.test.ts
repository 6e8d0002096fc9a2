import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDestinationClient, isPublicAddress, type DestinationOptions } from '../../src/webhooks/destination.ts';
import { generateWebhookSecret } from '../../src/provisioning/webhooks.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { addSubmission, call } from '../features/applications/helpers.ts';
import { capped, deliverDue, seedWithEndpoint, testDispatcher } from './harness.ts';
import { ManualTimer } from './manual-timer.ts';
import { Receiver, SENDERS, testDispatcherSettings } from './receiver.ts';

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
  const TIMEOUT_MS = 10_000;
  let receiver: Receiver;
  /** The receiver's delays and the client's deadlines both run on it. */
  let timer: ManualTimer;
  const clients: Array<{ close(): void }> = [];

  /** A client to the local receiver, its deadlines on the test's timer. */
  function client(overrides: Partial<DestinationOptions> = {}) {
    const made = createDestinationClient(
      { timeoutMs: TIMEOUT_MS, excerptBytes: 64, allowPrivateNetworks: true, maxSocketsPerOrigin: 8, ...overrides },
      timer,
    );
    clients.push(made);
    return made;
  }

  beforeAll(async () => {
    timer = new ManualTimer();
    receiver = await Receiver.start({ timer });
  });
  afterEach(() => {
    for (const made of clients.splice(0)) made.close();
    receiver.behaviour = () => 204;
    receiver.connections = 'keep-alive';
    receiver.releaseHanging();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('refuses a loopback address, literal or resolved by DNS, unless private networks are allowed', async () => {
    receiver.endpoint('/x', generateWebhookSecret());
    const refusing = client({ allowPrivateNetworks: false });
    const port = new URL(receiver.baseUrl).port;
    for (const url of [`${receiver.baseUrl}/x`, `http://localhost:${port}/x`, `http://[::1]:${port}/x`]) {
      const outcome = await refusing.post(url, {}, '{}');
      expect(outcome.status).toBeNull();
      expect(outcome.error).toMatch(/^refused: /);
    }
    expect(receiver.at('/x')).toEqual([]);
    expect((await client().post(`http://localhost:${port}/x`, {}, '{}')).status).toBe(204);
  });

  it('does not follow redirects and keeps only an excerpt of the answer', async () => {
    receiver.behaviour = () => 302;
    const outcome = await client().post(`${receiver.baseUrl}/redirect`, {}, '{}');
    expect(outcome.status).toBe(302);
    expect(outcome.excerpt!.length).toBeLessThanOrEqual(64);
    expect(receiver.at('/redirect')).toHaveLength(1);
  });

  it('a slow answer within the timeout is an answer; one after it is a timeout', async () => {
    receiver.behaviour = ({ count }) => ({ status: 204, afterMs: count === 1 ? TIMEOUT_MS - 1 : TIMEOUT_MS + 1 });
    const http = client();
    const inTime = http.post(`${receiver.baseUrl}/slow`, {}, '{}');
    await receiver.waitFor((r) => r.at('/slow').length === 1, 'the first request');
    await timer.advance(TIMEOUT_MS - 1);
    expect(await capped(inTime, 'the answer')).toMatchObject({ status: 204, error: null });

    const late = http.post(`${receiver.baseUrl}/slow`, {}, '{}');
    await receiver.waitFor((r) => r.at('/slow').length === 2, 'the second request');
    await timer.advance(TIMEOUT_MS + 1);
    expect(await capped(late, 'the timeout')).toMatchObject({ status: null, error: `no answer within ${TIMEOUT_MS} ms` });
  });

  it('times an answer from the request on the wire, not from its wait for a pooled connection', async () => {
    // One connection to the origin: the second request waits for the first one's, 6 s, then takes 6 s itself.
    receiver.behaviour = () => ({ status: 204, afterMs: 6_000 });
    const http = client({ maxSocketsPerOrigin: 1 });
    const first = http.post(`${receiver.baseUrl}/pooled`, {}, '{"n":1}');
    const second = http.post(`${receiver.baseUrl}/pooled`, {}, '{"n":2}');
    await receiver.waitFor((r) => r.at('/pooled').length === 1, 'the first request');
    await timer.advance(6_000);
    expect(await capped(first, 'the first answer')).toMatchObject({ status: 204 });
    await receiver.waitFor((r) => r.at('/pooled').length === 2, 'the second request, on the freed connection');
    // 12 s after it was made, 6 s after it went on the wire: answered in time.
    await timer.advance(6_000);
    expect(await capped(second, 'the second answer')).toMatchObject({ status: 204, error: null });
    expect(receiver.at('/pooled').map((r) => r.onConnection)).toEqual([1, 2]);
  });

  it('sends a request again at once, on a new connection, when the receiver had closed the kept-alive one', async () => {
    receiver.connections = 'drop-reused';
    const http = client();
    expect(await http.post(`${receiver.baseUrl}/reused`, {}, '{"n":1}')).toMatchObject({ status: 204 });
    // The pooled connection is reused; the receiver closes it unread, as if it had timed it out just then.
    expect(await http.post(`${receiver.baseUrl}/reused`, {}, '{"n":2}')).toMatchObject({ status: 204, error: null });
    expect(receiver.received.filter((r) => r.path === '/reused').map((r) => [r.body, r.answered, r.onConnection])).toEqual([
      ['{"n":1}', 204, 1],
      ['', 'dropped', 2],
      ['{"n":2}', 204, 1],
    ]);
  });

  it('a request that fails again on the new connection fails: it is sent twice, not more', async () => {
    const http = client();
    expect(await http.post(`${receiver.baseUrl}/closing`, {}, '{"n":1}')).toMatchObject({ status: 204 });
    receiver.behaviour = () => 'drop';
    const outcome = await http.post(`${receiver.baseUrl}/closing`, {}, '{"n":2}');
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/socket hang up|ECONNRESET/);
    expect(receiver.at('/closing').map((r) => [r.body, r.answered, r.onConnection])).toEqual([
      ['{"n":1}', 204, 1],
      ['{"n":2}', 'drop', 2],
      ['{"n":2}', 'drop', 1],
    ]);
  });

  it('a request that is answered is never sent again, whatever happens to its connection afterwards', async () => {
    receiver.connections = 'close-after-answer';
    const http = client({ maxSocketsPerOrigin: 2 });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, n) => http.post(`${receiver.baseUrl}/closed`, {}, JSON.stringify({ n }))),
    );
    expect(outcomes.map((o) => o.error ?? o.status)).toEqual(Array.from({ length: 12 }, () => 204));
    expect(receiver.at('/closed')).toHaveLength(12);
    expect(new Set(receiver.at('/closed').map((r) => r.body)).size).toBe(12);
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
    const { dispatcher } = testDispatcher(ctx, { settings, sender });
    try {
      const id = await addSubmission(ctx, fixture.workspace);
      const res = await call(ctx.inject, 'accept', id, { token: await dashboardToken(REVIEWER_USER_ID), body: {} });
      expect(res.statusCode).toBe(200);
      expect(await deliverDue(dispatcher)).toBe(1);
      const row = await ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirst();
      expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status: null });
      expect(row!.last_error).toMatch(/^refused: /);
      expect(receiver.at('/internal')).toEqual([]);
    } finally {
      await dispatcher.stop(0);
    }
  });
});
