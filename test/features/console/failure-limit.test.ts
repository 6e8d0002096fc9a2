/** Failed code exchanges are counted per client address across instances (Redis), and without Redis. */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createTestContext } from '../../helpers/app.ts';
import { checkedInject } from '../../helpers/contract.ts';
import { REDIS_URL, redisAvailable } from '../../helpers/redis.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { exchange, linkCode, seedConsoleWorld } from './helpers.ts';

const MINUTE = 60_000;
/** A whole minute of its own for each run: the shared counters are keyed by address and window. */
const freshWindow = () => Date.parse('2030-01-01T00:00:00Z') + randomInt(1_000_000) * MINUTE;

const sessions = (code: string) => ({
  method: 'POST' as const,
  url: '/v1/console/sessions',
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify({ code }),
});

describe.each(STORE_KINDS)('failed sign-ins counted across instances (%s)', (kind) => {
  it.runIf(redisAvailable)('two instances sharing Redis count one budget per address', async () => {
    const ctx = await createTestContext(kind, { env: { REDIS_URL }, now: freshWindow() });
    const secondStore = ctx.database.open();
    const second = await buildApp({ config: ctx.config, store: secondStore, clock: ctx.clock, logger: false });
    try {
      const world = await seedConsoleWorld(ctx);
      const secondInject = await checkedInject(second);
      const valid = await linkCode(ctx, world);
      for (let i = 0; i < 10; i += 1) {
        const res = await (i % 2 === 0 ? ctx.inject : secondInject)(sessions(`wrong${i}`));
        expect(res.statusCode).toBe(401);
      }
      for (const inject of [ctx.inject, secondInject]) {
        const limited = await inject(sessions(valid));
        expect(limited.statusCode).toBe(429);
        expect(limited.json().error.code).toBe('rate_limited');
      }
      ctx.clock.advance(MINUTE);
      expect((await secondInject(sessions(valid))).statusCode).toBe(200);
    } finally {
      await second.close();
      await secondStore.close();
      await ctx.close();
    }
  });
});

describe('failed sign-ins while Redis cannot be reached', () => {
  it('are counted in the instance\'s memory: still 429 after 10', async () => {
    const ctx = await createTestContext('sqlite', { env: { REDIS_URL: 'redis://127.0.0.1:1' }, now: freshWindow() });
    try {
      const world = await seedConsoleWorld(ctx);
      const valid = await linkCode(ctx, world);
      for (let i = 0; i < 10; i += 1) expect((await exchange(ctx, `wrong${i}`)).statusCode).toBe(401);
      expect((await exchange(ctx, valid)).statusCode).toBe(429);
    } finally {
      await ctx.close();
    }
  });
});
