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
   * limit. A request the counters cannot count (Redis unreachable) goes through, with a warning.
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
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  // ioredis emits an error on every failed reconnection; the requests left uncounted are logged instead.
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

  return {
    async check(request, reply) {
      // Checked here too: a request without an actor is a programming error, not a store error to let through.
      principal(request.actor);
      let counted: Awaited<ReturnType<typeof count>>;
      try {
        counted = await count(request);
      } catch (err) {
        // A broken counter store must not take the API down: let the request through.
        request.log.warn({ err }, 'rate limit store unavailable; request not counted');
        return;
      }
      if (counted.isAllowed) return; // only with an allow list, and there is none
      const now = clock.now();
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
