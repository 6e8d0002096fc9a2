import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** True when a Redis server answers at REDIS_URL. */
export async function probeRedis(url = REDIS_URL): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export const redisAvailable = await probeRedis();
if (!redisAvailable) {
  console.error(`!! Redis is not reachable at ${REDIS_URL}: the shared rate-limit tests do NOT run.`);
  if (process.env.CI === 'true') throw new Error(`CI requires Redis at ${REDIS_URL} for the rate-limit tests.`);
}
