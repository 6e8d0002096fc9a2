/**
 * What the test suite needs besides Node.js: PostgreSQL, Redis, Chromium, and Lua 5.1 with busted and LuaSocket.
 * vitest.config.ts probes them once per run (probePrerequisites) and hands what it found to the test files
 * (`inject('prerequisites')`, read by stores.ts, redis.ts, browser.ts and clients/lua.ts); the integration
 * project's global setup prints them (announcePrerequisites). Outside CI a missing one skips the tests that need it,
 * one line saying so; under `CI=true` it fails the run. docs/DEVELOPING.md lists them.
 *
 * This module runs in the process that reads the configuration: nothing here may use Vitest's runtime.
 */
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { POSTGRES_URL, probePostgres } from './postgres.ts';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The headless browser of the page tests: Debian's `chromium` package unless CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The Lua 5.1 interpreter and busted's script, both found with LuaSocket and busted's runner loadable. */
export interface LuaTools {
  readonly lua: string;
  readonly busted: string;
}

export interface Prerequisites {
  readonly postgres: boolean;
  readonly redis: boolean;
  readonly chromium: boolean;
  readonly lua: LuaTools | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    prerequisites: Prerequisites;
  }
}

/** True when a Redis server answers PING at `url`. */
export async function probeRedis(url = REDIS_URL): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 3000 });
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

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function which(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** lua5.1 and busted on the PATH, and LuaSocket and busted's runner loadable by that interpreter (as .ci/run checks). */
function probeLua(): LuaTools | null {
  const lua = which('lua5.1');
  const busted = which('busted');
  if (lua === undefined || busted === undefined) return null;
  const loads = spawnSync(lua, ['-e', 'require("socket.http"); require("busted.runner")'], { stdio: 'ignore', timeout: 10_000 });
  return loads.status === 0 ? { lua, busted } : null;
}

export async function probePrerequisites(): Promise<Prerequisites> {
  const [postgres, redis] = await Promise.all([probePostgres(), probeRedis()]);
  return { postgres, redis, chromium: executable(CHROMIUM), lua: probeLua() };
}

/** host:port of a server URL, as the lines below name it. */
function address(url: string, defaultPort: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || defaultPort}`;
  } catch {
    return url;
  }
}

/** One line per missing prerequisite: what is missing, what it means for the run, how to provide it. */
function missingLines(found: Prerequisites, ci: boolean): string[] {
  const outcome = (tests: string, skipped = `${tests} are skipped`) => (ci ? `CI runs ${tests}` : skipped);
  const lines: string[] = [];
  if (!found.postgres) {
    lines.push(
      `PostgreSQL is not answering at ${address(POSTGRES_URL, '5432')}: ` +
        `${outcome('its tests', 'its tests are skipped (every suite runs on SQLite only)')}; ` +
        'start it with `docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust -e POSTGRES_DB=test postgres:17-alpine` ' +
        'or point TEST_DATABASE_URL at a server.',
    );
  }
  if (!found.redis) {
    lines.push(
      `Redis is not answering at ${address(REDIS_URL, '6379')}: ${outcome('the Redis tests (shared rate limits, a Redis outage)')}; ` +
        'start it with `docker run -d -p 6379:6379 redis:7-alpine` or point TEST_REDIS_URL at a server.',
    );
  }
  if (!found.chromium) {
    lines.push(
      `Chromium is missing at ${CHROMIUM}: ${outcome('the browser tests (the console, /docs)')}; ` +
        'install it with `sudo apt-get install chromium` or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  if (found.lua === null) {
    lines.push(
      `Lua 5.1 with busted and LuaSocket is missing: ${outcome('the game-server client tests')}; ` +
        'install them with `sudo apt-get install lua5.1 lua-busted lua-socket`.',
    );
  }
  return lines;
}

/**
 * Prints what the tests use and, one line each, what is missing and so skipped; under `CI=true` a missing
 * prerequisite throws instead, failing the run (the integration project's global setup calls it).
 */
export function announcePrerequisites(found: Prerequisites, env: NodeJS.ProcessEnv = process.env): void {
  const ci = env.CI === 'true';
  console.log(
    `The tests use PostgreSQL at ${address(POSTGRES_URL, '5432')} (TEST_DATABASE_URL), Redis at ` +
      `${address(REDIS_URL, '6379')} (TEST_REDIS_URL), Chromium at ${CHROMIUM} (CHROMIUM_PATH) and Lua 5.1 with busted ` +
      'and LuaSocket.',
  );
  const missing = missingLines(found, ci);
  if (ci && missing.length > 0) throw new Error(`Under CI=true every test runs:\n${missing.join('\n')}`);
  for (const line of missing) console.error(`!! ${line}`);
}

/**
 * Test names that run whatever answers: every name but those of a suite's PostgreSQL run, which its
 * `describe.each(STORE_KINDS)` title names `(postgres…)` (stores.ts). Set as the configuration's
 * `testNamePattern` when PostgreSQL does not answer, so Vitest reports those tests as skipped; `-t` on the
 * command line replaces it.
 */
export const WITHOUT_POSTGRES = /^(?!.*\(postgres\b)/;
