import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { ManualClock } from '../../../src/shared/clock.ts';
import { newId } from '../../../src/shared/ids.ts';
import { generateWebhookSecret } from '../../../src/provisioning/webhooks.ts';
import { createTestContext, DEFAULT_NOW, testConfig, type TestContext } from '../../helpers/app.ts';
import { checkedInject } from '../../helpers/contract.ts';
import { bearer, buildFixture, seed } from '../../helpers/fixtures.ts';
import { parseExposition, type Exposition } from '../../helpers/prometheus.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { dataOf, shiftClient, startBody } from '../activity/shifts/shift-client.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

describe.each(STORE_KINDS)('GET /metrics (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture();
  beforeAll(async () => {
    ctx = await createTestContext(kind);
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function scrape(): Promise<Exposition> {
    const res = await ctx.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(res.body);
  }

  const requests = (m: Exposition, labels: Record<string, string>) => m.value('http_requests_total', labels) ?? 0;

  it('exposes the process and runtime defaults in the Prometheus text format', async () => {
    const m = await scrape();
    expect(m.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(m.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(m.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(m.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(m.types.get('http_requests_total')).toBe('counter');
    expect(m.types.get('http_request_duration_seconds')).toBe('histogram');
  });

  it('counts requests and times them by method, route pattern and status as traffic arrives', async () => {
    const health = { method: 'GET', route: '/health', status: '200' };
    const before = await scrape();
    for (let i = 0; i < 3; i += 1) expect((await ctx.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const after = await scrape();
    expect(requests(after, health) - requests(before, health)).toBe(3);
    // The histogram counts the same requests, each in the +Inf bucket and in its sum.
    const count = (m: Exposition) => m.value('http_request_duration_seconds_count', health) ?? 0;
    expect(count(after) - count(before)).toBe(3);
    expect(after.value('http_request_duration_seconds_bucket', { ...health, le: '+Inf' })).toBe(count(after));
    expect(after.value('http_request_duration_seconds_sum', health)).toBeGreaterThan(0);
  });

  it('labels by the route pattern, never the raw URL; unknown paths share one fixed label', async () => {
    const client = shiftClient(ctx, fixture.keys.test.secret);
    const shiftId = dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture))).shift.id;
    expect((await client.get(shiftId)).statusCode).toBe(200);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await client.get(missing)).statusCode).toBe(404);
    expect((await ctx.inject({ method: 'GET', url: '/no/such/path-4711?x=1' })).statusCode).toBe(404);
    expect((await ctx.inject({ method: 'DELETE', url: '/health' })).statusCode).toBe(405);

    const res = await ctx.inject({ method: 'GET', url: '/metrics' });
    const m = parseExposition(res.body);
    const route = '/v1/activity/shifts/:shiftId';
    expect(m.value('http_requests_total', { method: 'GET', route, status: '200' })).toBe(1);
    expect(m.value('http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
    expect(m.value('http_requests_total', { method: 'POST', route: '/v1/activity/shifts/start', status: '200' })).toBe(1);
    expect(m.value('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(m.value('http_requests_total', { method: 'DELETE', route: 'unmatched', status: '405' })).toBe(1);
    // No raw path (ids, made-up paths, query strings) ever becomes a label value. (Only the labels are searched:
    // a sampled value, such as an event-loop delay of 0.0047113 s, may hold any digits.)
    const labelText = [...res.body.matchAll(/\{[^}]*\}/g)].map((match) => match[0]).join('\n');
    expect(labelText).toContain('/v1/activity/shifts/:shiftId');
    expect(labelText).not.toContain(shiftId);
    expect(labelText).not.toContain(missing);
    expect(labelText).not.toContain('4711');
    const routes = new Set(m.all('http_requests_total').map((s) => s.labels.route));
    for (const label of routes) expect(label === 'unmatched' || label?.startsWith('/')).toBe(true);
  });

  it('reports live shifts per environment, and drops a shift once it times out', async () => {
    const live = shiftClient(ctx, fixture.keys.live.secret);
    const before = await scrape();
    const testBefore = before.value('workspace_gateway_active_shifts', { environment: 'test' }) ?? NaN;
    expect(before.value('workspace_gateway_active_shifts', { environment: 'live' })).toBe(0);
    expect(dataOf(await live.start(startBody(fixture, { gameUserId: fixture.staff.bob.gameUserId }))).shift).toBeTruthy();
    const after = await scrape();
    expect(after.value('workspace_gateway_active_shifts', { environment: 'live' })).toBe(1);
    expect(after.value('workspace_gateway_active_shifts', { environment: 'test' })).toBe(testBefore);
    ctx.clock.advance((ctx.config.shiftTimeoutSeconds + 1) * 1000);
    const later = await scrape();
    expect(later.value('workspace_gateway_active_shifts', { environment: 'live' })).toBe(0);
    expect(later.value('workspace_gateway_active_shifts', { environment: 'test' })).toBe(0);
  });

  it('reports the webhook outbox\'s pending deliveries (none here)', async () => {
    const m = await scrape();
    expect(m.value('workspace_gateway_pending_webhook_deliveries')).toBe(0);
  });

  it('is not rate limited and not behind an API key; documented under metadata as text/plain', async () => {
    const doc = (await ctx.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/metrics'].get;
    expect(op.tags).toEqual(['metadata']);
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/plain']);
  });
});

describe.each(STORE_KINDS)('GET /metrics settings (%s)', (kind) => {
  it('with METRICS_TOKEN: 401 in the envelope without the token or with a wrong one, 200 with it', async () => {
    const ctx = await createTestContext(kind, { env: { METRICS_TOKEN: TOKEN } });
    try {
      const none = await ctx.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(none.json().error.code).toBe('unauthenticated');
      for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`]) {
        const res = await ctx.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.body).not.toContain(TOKEN);
      }
      const ok = await ctx.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
      expect(ok.statusCode).toBe(200);
      expect(parseExposition(ok.body).value('http_requests_total', { route: '/metrics', status: '401' })).toBe(5);
      // Health and readiness stay open.
      expect((await ctx.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it('/metrics and /ready stay out of rate limiting', async () => {
    const ctx = await createTestContext(kind, { env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '3600' } });
    try {
      for (let i = 0; i < 6; i += 1) {
        for (const url of ['/metrics', '/ready']) {
          const res = await ctx.inject({ method: 'GET', url });
          expect(res.statusCode, url).toBe(200);
          expect(res.headers.ratelimit).toBeUndefined();
        }
      }
    } finally {
      await ctx.close();
    }
  });

  it('reports the webhook outbox: a start with an endpoint subscribed moves the pending-deliveries gauges', async () => {
    const ctx = await createTestContext(kind);
    try {
      const fixture = buildFixture();
      const secret = generateWebhookSecret();
      fixture.workspace.webhooks = [{ id: newId(), url: 'https://hooks.example.com/gateway', events: ['*'], secret }];
      await seed(ctx, fixture);
      const gauge = async (name: string) =>
        parseExposition((await ctx.inject({ method: 'GET', url: '/metrics' })).body).value(name);
      const pending = () => gauge('workspace_gateway_pending_webhook_deliveries');
      const oldestSeconds = () => gauge('workspace_gateway_oldest_pending_webhook_delivery_seconds');
      expect(await pending()).toBe(0);
      expect(await oldestSeconds()).toBe(0);
      // No dispatcher runs in this app: the delivery stays pending, and waits longer as time passes.
      dataOf(await shiftClient(ctx, fixture.keys.test.secret).start(startBody(fixture)));
      expect(await pending()).toBe(1);
      expect(await oldestSeconds()).toBe(0);
      ctx.clock.advance(90_500);
      expect(await oldestSeconds()).toBe(90.5);
    } finally {
      await ctx.close();
    }
  });

  it('each app counts its own requests (a registry per app) and reports injected webhook figures', async () => {
    const ctx = await createTestContext(kind);
    let backlogReads = 0;
    const other = await buildApp({
      config: testConfig(),
      store: ctx.store,
      clock: new ManualClock(DEFAULT_NOW),
      logger: false,
      webhookBacklog: async () => {
        backlogReads += 1;
        return { pending: 7, oldestAgeSeconds: 12 };
      },
      webhookAttempts: () => ({ delivered: 5, retrying: 2, failed: 1 }),
    });
    try {
      await other.ready();
      const inject = await checkedInject(other);
      for (let i = 0; i < 4; i += 1) await inject({ method: 'GET', url: '/version' });
      const mine = parseExposition((await ctx.inject({ method: 'GET', url: '/metrics' })).body);
      const theirs = parseExposition((await inject({ method: 'GET', url: '/metrics' })).body);
      expect(mine.value('http_requests_total', { route: '/version' })).toBeUndefined();
      expect(theirs.value('http_requests_total', { route: '/version', status: '200' })).toBe(4);
      expect(theirs.value('workspace_gateway_pending_webhook_deliveries')).toBe(7);
      expect(theirs.value('workspace_gateway_oldest_pending_webhook_delivery_seconds')).toBe(12);
      // Both gauges come from one read of the backlog per scrape.
      expect(backlogReads).toBe(1);
      // The attempts counter is there only where a dispatcher runs (a serving process; see the webhook tests).
      expect(mine.types.get('workspace_gateway_webhook_attempts_total')).toBeUndefined();
      expect(theirs.types.get('workspace_gateway_webhook_attempts_total')).toBe('counter');
      const attempts = (result: string) => theirs.value('workspace_gateway_webhook_attempts_total', { result });
      expect([attempts('delivered'), attempts('retrying'), attempts('failed')]).toEqual([5, 2, 1]);
    } finally {
      await other.close();
      await ctx.close();
    }
  });
});
