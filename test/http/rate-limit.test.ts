import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { checkedInject } from '../helpers/contract.ts';
import { bearer, buildFixture, dashboardToken, REVIEWER_USER_ID, seed } from '../helpers/fixtures.ts';
import { REDIS_URL, redisAvailable } from '../helpers/redis.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

const LIMIT_ENV = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' };

describe.each(STORE_KINDS)('rate limiting in memory (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture({ extraKeys: { other: {} } });

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

  it('an unreachable Redis lets requests through rather than failing them', async () => {
    const fixture = buildFixture();
    const ctx = await createTestContext('sqlite', { env: { ...LIMIT_ENV, REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      await seed(ctx, fixture);
      for (let i = 0; i < 5; i += 1) {
        const res = await ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(fixture.keys.test.secret) });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await ctx.close();
    }
  });
});

describe.runIf(redisAvailable)('rate limiting shared through Redis', () => {
  it('two instances share one budget per key', async () => {
    const fixture = buildFixture();
    const ctx = await createTestContext('sqlite', { env: { ...LIMIT_ENV, REDIS_URL } });
    const second = await buildApp({ config: ctx.config, store: ctx.database.open(), clock: ctx.clock, logger: false });
    try {
      await seed(ctx, fixture);
      const secondInject = await checkedInject(second);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const inject = i % 2 === 0 ? ctx.inject : secondInject;
        const res = await inject({ method: 'GET', url: '/v1/integration', headers: bearer(fixture.keys.test.secret) });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await second.close();
      await ctx.close();
    }
  });
});
