import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
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

export interface RedisProxy {
  /** A redis:// URL that reaches the test Redis through this proxy. */
  readonly url: string;
  /** Stops listening and cuts every connection: Redis is down for whoever used `url`. */
  cut(): Promise<void>;
}

/** A TCP proxy in front of the test Redis, so a test can take "Redis" away from an app that is connected to it. */
export async function startRedisProxy(url = REDIS_URL): Promise<RedisProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
