import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';

/**
 * Failures counted per client address (`request.ip`, which believes only TRUST_PROXY's proxies), in fixed windows
 * on the clock: once an address has failed `max` times in a window, every request of it is refused with 429
 * `rate_limited` until the window ends, whether or not it would have succeeded (so guessing stops, rather than
 * slowing). Used by the console's code exchange (src/features/console/routes.ts). The counters are shared through
 * Redis when REDIS_URL is set (as the request rate limit's, src/http/rate-limit.ts), else kept in memory; while
 * Redis cannot be reached, each instance counts in its own memory (a warning logged), never not at all.
 */
export interface FailureLimiter {
  /** Throws 429 `rate_limited` (with `Retry-After`) while the request's address has no failure left in this window. */
  check(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Counts a failure of the request's address. */
  fail(request: FastifyRequest): Promise<void>;
}

export interface FailureLimitOptions {
  /** Names the counters (in Redis: `wsg:fl:<name>:<address>:<window start, epoch ms>`). */
  readonly name: string;
  readonly max: number;
  readonly windowSeconds: number;
  readonly clock: Clock;
  readonly redis?: Redis | undefined;
}

/** Addresses counted in memory per window (the oldest go first beyond it). */
const MEMORY_COUNTERS = 100_000;

function memoryCounters() {
  let window = -1;
  const counts = new Map<string, number>();
  const current = (windowStart: number) => {
    if (windowStart !== window) {
      counts.clear();
      window = windowStart;
    }
    return counts;
  };
  return {
    get: (address: string, windowStart: number) => current(windowStart).get(address) ?? 0,
    add(address: string, windowStart: number) {
      const map = current(windowStart);
      map.set(address, (map.get(address) ?? 0) + 1);
      if (map.size > MEMORY_COUNTERS) {
        const oldest = map.keys().next();
        if (oldest.done !== true) map.delete(oldest.value);
      }
    },
  };
}

export function createFailureLimiter({ name, max, windowSeconds, clock, redis }: FailureLimitOptions): FailureLimiter {
  const windowMs = windowSeconds * 1000;
  const windowStart = (now: number) => Math.floor(now / windowMs) * windowMs;
  const memory = memoryCounters();
  const redisKey = (address: string, start: number) => `wsg:fl:${name}:${address}:${start}`;

  async function failures(request: FastifyRequest, start: number): Promise<number> {
    if (redis) {
      try {
        return Number((await redis.get(redisKey(request.ip, start))) ?? 0);
      } catch (err) {
        request.log.warn({ err }, 'failure counters unavailable in Redis; counting in memory');
      }
    }
    return memory.get(request.ip, start);
  }

  return {
    async check(request, reply) {
      const now = clock.now();
      const start = windowStart(now);
      if ((await failures(request, start)) < max) return;
      const retryAfterSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
      reply.header('retry-after', String(retryAfterSeconds));
      throw new AppError('rate_limited', `Too many failed attempts from this address; retry in ${retryAfterSeconds} s.`, {
        limit: max,
        windowSeconds,
        retryAfterSeconds,
      });
    },
    async fail(request) {
      const start = windowStart(clock.now());
      // Counted in memory as well: what this instance saw still counts while Redis is away.
      memory.add(request.ip, start);
      if (!redis) return;
      try {
        const key = redisKey(request.ip, start);
        await redis.multi().incr(key).pexpire(key, windowMs * 2).exec();
      } catch (err) {
        request.log.warn({ err }, 'failure counters unavailable in Redis; counting in memory');
      }
    },
  };
}
