import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/app.ts';
import { checkedInject } from '../helpers/contract.ts';
import { bearer, buildFixture, dashboardToken, REVIEWER_USER_ID, seed } from '../helpers/fixtures.ts';
import { startFaultProxy, throughProxy } from '../helpers/fault-proxy.ts';
import { REDIS_URL, redisAvailable } from '../helpers/redis.ts';
import { eventually } from '../webhooks/receiver.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

const PINO_WARN = 40;
const PINO_ERROR = 50;
const LIMIT_ENV = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' };

describe.each(STORE_KINDS)('rate limiting in memory (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture({ extraKeys: { other: {}, readOnly: { scopes: ['activity:read'] } } });

  beforeAll(async () => {
    ctx = await createTestContext(kind, { env: LIMIT_ENV, now: Date.parse('2026-03-11T12:00:10Z') });
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const integration = (secret: string) =>
    ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(secret) });

  it('counts per API key, with IETF RateLimit headers, then answers 429 rate_limited with Retry-After', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await integration(fixture.keys.test.secret);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
      seen.push(String(res.headers.ratelimit));
    }
    expect(seen).toEqual(['"default";r=2;t=50', '"default";r=1;t=50', '"default";r=0;t=50']);
    const limited = await integration(fixture.keys.test.secret);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe('50');
    expect(limited.headers.ratelimit).toBe('"default";r=0;t=50');
    expect(limited.json().error).toMatchObject({
      message: 'Too many requests; retry in 50 s.',
      details: { limit: 3, windowSeconds: 60, retryAfterSeconds: 50 },
      requestId: limited.headers['x-request-id'],
    });
    // Only the documented fields: none of the plugin's own X-RateLimit-* or RateLimit-Limit/-Remaining/-Reset.
    const names = Object.keys(limited.headers).filter((name) => name.includes('ratelimit'));
    expect(names.sort()).toEqual(['ratelimit', 'ratelimit-policy']);
  });

  it('a key is counted before its scope is checked: 403 insufficient_scope within the limit, 429 over it', async () => {
    const staffMe = () =>
      ctx.inject({ method: 'GET', url: '/v1/staff/me', headers: bearer(fixture.keys.readOnly.secret) });
    for (let i = 0; i < 3; i += 1) {
      const refused = await staffMe();
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('insufficient_scope');
      expect(refused.headers.ratelimit).toBe(`"default";r=${2 - i};t=50`);
    }
    const limited = await staffMe();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
  });

  it('another key of the same application has its own budget', async () => {
    expect((await integration(fixture.keys.other.secret)).statusCode).toBe(200);
  });

  it('a dashboard user is limited per user', async () => {
    const token = await dashboardToken(REVIEWER_USER_ID);
    const call = () =>
      ctx.inject({
        method: 'POST',
        url: '/v1/applications/submissions/00000000-0000-4000-8000-000000000000/reject',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': `rl-${Math.random()}` },
      });
    for (let i = 0; i < 3; i += 1) expect((await call()).statusCode).toBe(404);
    expect((await call()).statusCode).toBe(429);
  });

  it('the budget comes back when the window ends', async () => {
    ctx.clock.advance(60_000);
    expect((await integration(fixture.keys.test.secret)).statusCode).toBe(200);
  });

  it('unauthenticated requests are answered 401, not counted against a key', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/integration' });
    expect(res.statusCode).toBe(401);
    expect(res.headers.ratelimit).toBeUndefined();
  });
});

describe('rate limit configuration', () => {
  it('RATE_LIMIT_MAX=0 turns rate limiting off', async () => {
    const fixture = buildFixture();
    const ctx = await createTestContext('sqlite', { env: { RATE_LIMIT_MAX: '0' } });
    try {
      await seed(ctx, fixture);
      for (let i = 0; i < 5; i += 1) {
        const res = await ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(fixture.keys.test.secret) });
        expect(res.statusCode).toBe(200);
        expect(res.headers.ratelimit).toBeUndefined();
      }
    } finally {
      await ctx.close();
    }
  });

  it('an unreachable Redis neither fails requests nor lifts the limit: the instance counts alone', async () => {
    const fixture = buildFixture();
    const ctx = await createTestContext('sqlite', { env: { ...LIMIT_ENV, REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      await seed(ctx, fixture);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const res = await ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(fixture.keys.test.secret) });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await ctx.close();
    }
  });
});

describe.each(STORE_KINDS)('rate limiting shared through Redis (%s)', (kind) => {
  const now = Date.parse('2026-03-11T12:00:10Z');
  const integration = (secret: string) => ({ method: 'GET' as const, url: '/v1/integration', headers: bearer(secret) });

  it.runIf(redisAvailable)('two instances count together: one budget and one RateLimit count per key', async () => {
    const fixture = buildFixture();
    const ctx = await createTestContext(kind, { env: { ...LIMIT_ENV, REDIS_URL }, now });
    const secondStore = ctx.database.open();
    const second = await buildApp({ config: ctx.config, store: secondStore, clock: ctx.clock, logger: false });
    const redis = new Redis(REDIS_URL);
    try {
      await seed(ctx, fixture);
      const secondInject = await checkedInject(second);
      const answers: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const inject = i % 2 === 0 ? ctx.inject : secondInject;
        const res = await inject(integration(fixture.keys.test.secret));
        answers.push(`${res.statusCode} ${String(res.headers.ratelimit)}`);
      }
      expect(answers).toEqual([
        '200 "default";r=2;t=50',
        '200 "default";r=1;t=50',
        '200 "default";r=0;t=50',
        '429 "default";r=0;t=50',
      ]);
      // The shared counter expires: Redis does not keep a key per window for ever.
      const counter = `wsg:rl:key:${fixture.keys.test.id}:${Date.parse('2026-03-11T12:00:00Z')}`;
      expect(await redis.get(counter)).toBe('4');
      const ttl = await redis.pttl(counter);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      redis.disconnect();
      await second.close();
      await secondStore.close();
      await ctx.close();
    }
  });

  /** An app counting in Redis through a proxy the test controls, its log lines kept. */
  async function appThroughProxy() {
    const fixture = buildFixture();
    const ctx = await createTestContext(kind);
    const target = new URL(REDIS_URL);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const logs: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    });
    const app = await buildApp({
      config: testConfig({ ...LIMIT_ENV, REDIS_URL: throughProxy(REDIS_URL, proxy) }),
      store: ctx.store,
      clock: new ManualClock(now),
      loggerInstance: pino({ level: 'info' }, sink),
    });
    await seed(ctx, fixture);
    const inject = await checkedInject(app);
    const close = async () => {
      await app.close();
      await proxy.close();
      await ctx.close();
    };
    return { fixture, proxy, logs, inject, close };
  }

  /** Five requests after one counted in Redis: this instance counts them alone (its own window of 3). */
  async function countedAlone({ fixture, logs, inject }: Awaited<ReturnType<typeof appThroughProxy>>) {
    const answers: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const started = Date.now();
      const res = await inject(integration(fixture.keys.test.secret));
      // Never held by the counters: a count that gets no answer gives up within a quarter of a second.
      expect(Date.now() - started).toBeLessThan(1_000);
      answers.push(`${res.statusCode} ${String(res.headers.ratelimit)}`);
    }
    expect(answers).toEqual([
      '200 "default";r=2;t=50',
      '200 "default";r=1;t=50',
      '200 "default";r=0;t=50',
      '429 "default";r=0;t=50',
      '429 "default";r=0;t=50',
    ]);
    const warnings = logs.filter((line) => line.msg === 'rate limit store unavailable; counted by this instance alone');
    expect(warnings).toHaveLength(5);
    expect(warnings.every((line) => line.level === PINO_WARN)).toBe(true);
    expect(logs.filter((line) => line.level >= PINO_ERROR)).toEqual([]);
  }

  const goesAway = 'a Redis whose connections are reset: each instance limits alone, a warning each, nothing at error level';
  it.runIf(redisAvailable)(goesAway, async () => {
    const world = await appThroughProxy();
    try {
      const counted = await world.inject(integration(world.fixture.keys.test.secret));
      expect(counted.statusCode).toBe(200);
      expect(counted.headers.ratelimit).toBe('"default";r=2;t=50');
      world.proxy.reset();
      await countedAlone(world);
    } finally {
      await world.close();
    }
  });

  const silent = 'a Redis that goes silent (a failover) holds no request: each instance limits alone, then shares again';
  it.runIf(redisAvailable)(silent, async () => {
    const world = await appThroughProxy();
    try {
      expect((await world.inject(integration(world.fixture.keys.test.secret))).statusCode).toBe(200);
      world.proxy.failover();
      await countedAlone(world);
      // Back: once ioredis has connected again, a key not counted yet is counted in Redis, not in memory.
      world.proxy.restore();
      const redis = new Redis(REDIS_URL);
      try {
        const counter = `wsg:rl:key:${world.fixture.keys.live.id}:${Date.parse('2026-03-11T12:00:00Z')}`;
        await eventually(async () => {
          await world.inject(integration(world.fixture.keys.live.secret));
          return (await redis.get(counter)) !== null;
        }, 'the shared counters in use again');
      } finally {
        redis.disconnect();
      }
    } finally {
      await world.close();
    }
  }, 30_000);
});
