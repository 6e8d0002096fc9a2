/**
 * When Redis goes away (docs/RELIABILITY.md, "When Redis goes away"): a real `serve` process keeps its shared rate
 * limit counters in Redis through a proxy the test controls. While Redis's connections are reset, and while they go
 * silent (a failover), every request is still answered at once, within its limit as this instance alone counts
 * it; the process lives; and once Redis is back, the counts are shared again.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultProxy, throughProxy, type FaultProxy } from '../helpers/fault-proxy.ts';
import { REDIS_URL, redisAvailable } from '../helpers/redis.ts';
import { createTestDatabase } from '../helpers/stores.ts';
import { killAll, seedLoadWorld, send, sleep, startGateway, writeFigures } from './serving.ts';

const figures: Record<string, unknown> = {};

describe.runIf(redisAvailable)('when Redis goes away (a real gateway through a proxy)', () => {
  afterAll(async () => {
    await killAll();
    writeFigures('redis-outage', { ...figures, recordedAt: new Date().toISOString() });
  });

  const outages: Record<string, { begin(proxy: FaultProxy): void; end(proxy: FaultProxy): void }> = {
    reset: { begin: (proxy) => proxy.reset(), end: (proxy) => proxy.restore() },
    failover: { begin: (proxy) => proxy.failover(), end: (proxy) => proxy.restore() },
  };

  for (const [outage, { begin, end }] of Object.entries(outages)) {
    it(`${outage}: every request answered at once and limited by the instance alone, shared again after`, async () => {
      const database = await createTestDatabase('sqlite');
      const world = await seedLoadWorld(database, { extraStaff: 0, submissions: 0 });
      const target = new URL(REDIS_URL);
      const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
      const gateway = await startGateway({
        name: `redis-${outage}`,
        databaseUrl: database.url,
        env: { REDIS_URL: throughProxy(REDIS_URL, proxy), RATE_LIMIT_MAX: '1000000' },
      });
      const redis = new Redis(REDIS_URL);
      const keyId = world.fixture.keys.test.id;
      // The key's requests counted in Redis, over every window: requests that straddle a window's end are counted in two.
      const counted = async () => {
        const keys = await redis.keys(`wsg:rl:key:${keyId}:*`);
        const values = keys.length === 0 ? [] : await redis.mget(...keys);
        return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
      };
      const request = { method: 'GET' as const, path: '/v1/integration', headers: { authorization: `Bearer ${world.apiKey}` } };
      const slowest: number[] = [];
      const round = async (n: number) => {
        for (let i = 0; i < n; i += 1) {
          const started = Date.now();
          const res = await send(gateway.baseUrl, request, 5_000);
          slowest.push(Date.now() - started);
          expect(res.status).toBe(200);
          expect(res.headers.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
        }
      };
      try {
        await round(5);
        expect(await counted()).toBe(5);
        begin(proxy);
        await round(40);
        expect(await counted()).toBe(5);
        expect(gateway.exited(), gateway.output()).toBe(false);
        end(proxy);
        const backAt = Date.now();
        let sharedAgainMs = -1;
        while (Date.now() - backAt < 15_000) {
          await round(1);
          if ((await counted()) > 5) {
            sharedAgainMs = Date.now() - backAt;
            break;
          }
          await sleep(50);
        }
        expect(sharedAgainMs).toBeGreaterThanOrEqual(0);
        expect(Math.max(...slowest)).toBeLessThan(1_000);
        figures[outage] = { slowestAnswerMs: Math.max(...slowest), sharedAgainMs };
      } finally {
        redis.disconnect();
        await gateway.stop();
        await proxy.close();
        await database.drop().catch(() => undefined);
      }
    }, 60_000);
  }
});
