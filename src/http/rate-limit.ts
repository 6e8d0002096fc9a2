import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Actor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { Config } from '../shared/config.ts';
import { AppError } from '../shared/errors.ts';

export interface RateLimiter {
  /**
   * Counts the request against its authenticated actor (`request.actor`); throws 429 `rate_limited` over the
   * limit. While the shared counters cannot be reached (Redis down or silent), each instance counts in its own
   * memory instead: the limit holds per instance (it fails open across instances, never for one), with a warning.
   */
  check(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export interface RateLimitDeps {
  readonly config: Pick<Config, 'rateLimitMax' | 'rateLimitWindowSeconds'>;
  readonly clock: Clock;
  /** The shared counters (REDIS_URL, connectCounterStore); in memory when absent. */
  readonly redis?: Redis | undefined;
}

/** Redis keys are `wsg:rl:<key|user>:<id>:<window start, epoch ms>`. */
const REDIS_NAMESPACE = 'wsg:rl:';
/** Counters kept in memory (least recently used go first): one per actor and window. */
const MEMORY_COUNTERS = 100_000;
const REDIS_CONNECT_WAIT_MS = 2000;
/**
 * How long a count waits for Redis before the request is counted in memory instead: a silent Redis (a failover, a
 * partition) must not hold requests. A count that timed out also drops the connection, so that the next ones fail
 * at once while ioredis connects again, instead of each waiting for this.
 */
const REDIS_COMMAND_TIMEOUT_MS = 250;
/** TCP keepalive on the Redis connection, so that a dead idle connection is found. */
const REDIS_KEEPALIVE_MS = 10_000;

function principal(actor: Actor | null): string {
  if (!actor) throw new Error('rate limit checked before authentication');
  return actor.kind === 'apiKey' ? `key:${actor.keyId}` : `user:${actor.userId}`;
}

/**
 * The Redis of REDIS_URL, which holds the counters every instance shares (this request rate limit and the
 * failure limits of failure-limit.ts), disconnected when the app closes; undefined without REDIS_URL.
 */
export async function connectCounterStore(
  app: FastifyInstance,
  config: Pick<Config, 'redisUrl'>,
): Promise<Redis | undefined> {
  if (!config.redisUrl) return undefined;
  const redis = await connectRedis(config.redisUrl);
  app.addHook('onClose', async () => redis.disconnect());
  return redis;
}

/** Connects, waiting for at most REDIS_CONNECT_WAIT_MS: ioredis goes on reconnecting in the background. */
async function connectRedis(url: string): Promise<Redis> {
  // No offline queue: while Redis is unreachable a count fails at once and the request goes through uncounted.
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_WAIT_MS,
    keepAlive: REDIS_KEEPALIVE_MS,
  });
  // ioredis emits an error on every failed reconnection; the requests counted in memory are logged instead.
  redis.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, REDIS_CONNECT_WAIT_MS);
  });
  await Promise.race([redis.connect().catch(() => undefined), timeout]);
  clearTimeout(timer);
  return redis;
}

/**
 * A Redis connection that went silent (a failover, a partition) is never closed by Redis: its commands time out,
 * or, once ioredis connects again to an address that accepts but does not answer, it never becomes ready. Either
 * way the connection is dropped and made again (at most once per connection wait), until Redis answers.
 */
class SilentRedis {
  private lastAt = 0;

  afterFailure(redis: Redis, error: unknown): void {
    const timedOut = error instanceof Error && error.message === 'Command timed out';
    const now = Date.now();
    if (!timedOut && (redis.status === 'ready' || now - this.lastAt < REDIS_CONNECT_WAIT_MS)) return;
    if (timedOut && now - this.lastAt < REDIS_COMMAND_TIMEOUT_MS) return;
    this.lastAt = now;
    redis.disconnect(true);
  }
}

/**
 * Counts of the current window kept by this instance, for the requests the shared counters could not count: a
 * fixed window like theirs, forgotten when the window changes.
 */
class CountsInMemory {
  private window = 0;
  private readonly counts = new Map<string, number>();

  count(key: string, windowStart: number, limit: number): { remaining: number; isExceeded: boolean } {
    if (windowStart !== this.window) {
      this.window = windowStart;
      this.counts.clear();
    }
    // Beyond the cap, a new principal of this window goes uncounted rather than letting memory grow.
    const current = this.counts.get(key) ?? 0;
    if (current === 0 && this.counts.size >= MEMORY_COUNTERS) return { remaining: limit, isExceeded: false };
    const hits = current + 1;
    this.counts.set(key, hits);
    return { remaining: Math.max(0, limit - hits), isExceeded: hits > limit };
  }
}

/**
 * Registers @fastify/rate-limit (counters in memory, or in Redis with REDIS_URL) without a hook of its own:
 * `route-auth.ts` calls `check` after authentication and before the route's scope and feature checks. Null when
 * RATE_LIMIT_MAX is 0.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  { config, clock, redis }: RateLimitDeps,
): Promise<RateLimiter | null> {
  if (config.rateLimitMax === 0) return null;
  const limit = config.rateLimitMax;
  const windowSeconds = config.rateLimitWindowSeconds;
  const windowMs = windowSeconds * 1000;
  const windowStart = (now: number): number => Math.floor(now / windowMs) * windowMs;
  await app.register(fastifyRateLimit, {
    global: false,
    max: limit,
    timeWindow: windowMs,
    // The window is part of the key, so windows are fixed on the clock rather than started by a key's first
    // request. The plugin also expires a counter one window after its first hit (in Redis, by PEXPIRE), which is
    // never before the end of the window it counts.
    keyGenerator: (request) => `${principal(request.actor)}:${windowStart(clock.now())}`,
    // Headers and the 429 are ours (below), and a store error reaches `check`.
    skipOnError: false,
    cache: MEMORY_COUNTERS,
    ...(redis ? { redis, nameSpace: REDIS_NAMESPACE } : {}),
  });
  const count = app.createRateLimit();
  const alone = new CountsInMemory();
  const reconnect = new SilentRedis();

  return {
    async check(request, reply) {
      // Checked here too: a request without an actor is a programming error, not a store error to let through.
      principal(request.actor);
      const now = clock.now();
      let counted: { readonly remaining: number; readonly isExceeded: boolean };
      try {
        const shared = await count(request);
        if (shared.isAllowed) return; // only with an allow list, and there is none
        counted = shared;
      } catch (err) {
        // A broken counter store must not take the API down, nor leave it unlimited: this instance counts alone.
        if (redis) reconnect.afterFailure(redis, err);
        request.log.warn({ err }, 'rate limit store unavailable; counted by this instance alone');
        counted = alone.count(`${principal(request.actor)}:${windowStart(now)}`, windowStart(now), limit);
      }
      const resetSeconds = Math.max(1, Math.ceil((windowStart(now) + windowMs - now) / 1000));
      // IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): one policy named "default".
      reply.header('ratelimit-policy', `"default";q=${limit};w=${windowSeconds}`);
      reply.header('ratelimit', `"default";r=${counted.remaining};t=${resetSeconds}`);
      if (counted.isExceeded) {
        reply.header('retry-after', String(resetSeconds));
        throw new AppError('rate_limited', `Too many requests; retry in ${resetSeconds} s.`, {
          limit,
          windowSeconds,
          retryAfterSeconds: resetSeconds,
        });
      }
    },
  };
}
