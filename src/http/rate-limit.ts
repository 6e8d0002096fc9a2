import { Redis } from 'ioredis';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { Actor } from '../actor.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';

/** Counts hits in fixed windows; `count` includes this hit. */
export interface RateLimitStore {
  hit(key: string, windowStart: number, windowMs: number): Promise<number>;
  /** Resolves once the store can count (or gave up trying for now). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Per-process counters (the default). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { windowStart: number; count: number }>();

  async hit(key: string, windowStart: number): Promise<number> {
    const current = this.counters.get(key);
    if (current && current.windowStart === windowStart) {
      current.count += 1;
      return current.count;
    }
    if (this.counters.size > 100_000) this.prune(windowStart);
    this.counters.set(key, { windowStart, count: 1 });
    return 1;
  }

  private prune(windowStart: number): void {
    for (const [key, value] of this.counters) if (value.windowStart < windowStart) this.counters.delete(key);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.counters.clear();
  }
}

/** Counters shared by every instance through Redis (INCR on a key per window, expiring after it). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  private readonly prefix: string;
  constructor(url: string, prefix: string = 'wsg:rl:') {
    this.prefix = prefix;
    // No offline queue: when Redis is down a hit fails at once and the limiter lets the request through.
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    this.redis.on('error', () => undefined);
  }

  /** Connects (ioredis keeps reconnecting in the background if this first attempt fails). */
  async ready(timeoutMs = 2000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.redis.connect().catch(() => undefined), timeout]);
    clearTimeout(timer);
  }

  async hit(key: string, windowStart: number, windowMs: number): Promise<number> {
    const redisKey = `${this.prefix}${key}:${windowStart}`;
    const result = await this.redis.multi().incr(redisKey).pexpire(redisKey, windowMs + 1000).exec();
    const count = result?.[0]?.[1];
    if (typeof count !== 'number') throw new Error('unexpected Redis reply');
    return count;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

export interface RateLimitState {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
  readonly windowSeconds: number;
}

export interface RateLimiter {
  /** Counts the request against its principal; throws 429 `rate_limited` over the limit. */
  check(actor: Actor, reply: FastifyReply): Promise<void>;
  ready(): Promise<void>;
  close(): Promise<void>;
}

function principal(actor: Actor): string {
  return actor.kind === 'apiKey' ? `key:${actor.keyId}` : `user:${actor.userId}`;
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): one policy named "default". */
export function setRateLimitHeaders(reply: FastifyReply, state: RateLimitState): void {
  reply.header('ratelimit-policy', `"default";q=${state.limit};w=${state.windowSeconds}`);
  reply.header('ratelimit', `"default";r=${state.remaining};t=${state.resetSeconds}`);
}

export interface RateLimiterDeps {
  readonly config: Pick<Config, 'rateLimitMax' | 'rateLimitWindowSeconds' | 'redisUrl'>;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly store?: RateLimitStore;
}

export function createRateLimiter({ config, clock, log, store }: RateLimiterDeps): RateLimiter | null {
  if (config.rateLimitMax === 0) return null;
  const limit = config.rateLimitMax;
  const windowMs = config.rateLimitWindowSeconds * 1000;
  const counters = store ?? (config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : new MemoryRateLimitStore());
  return {
    async check(actor, reply) {
      const now = clock.now();
      const windowStart = Math.floor(now / windowMs) * windowMs;
      let count: number;
      try {
        count = await counters.hit(principal(actor), windowStart, windowMs);
      } catch (err) {
        // A broken counter store must not take the API down: let the request through.
        log.warn({ err }, 'rate limit store unavailable; request not counted');
        return;
      }
      const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
      const state = { limit, remaining: Math.max(0, limit - count), resetSeconds, windowSeconds: windowMs / 1000 };
      setRateLimitHeaders(reply, state);
      if (count > limit) {
        reply.header('retry-after', String(resetSeconds));
        throw new AppError('rate_limited', `Too many requests; retry in ${resetSeconds} s.`, {
          limit,
          windowSeconds: state.windowSeconds,
          retryAfterSeconds: resetSeconds,
        });
      }
    },
    ready: () => counters.ready(),
    close: () => counters.close(),
  };
}
