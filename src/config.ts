import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly gatewayEnv: string;
  readonly jwtSecret: string | undefined;
  readonly jwtJwksUrl: string | undefined;
  readonly jwtIssuer: string | undefined;
  readonly jwtAudience: string | undefined;
  readonly shiftTimeoutSeconds: number;
  readonly logLevel: LogLevel;
  readonly buildId: string;
  /** Requests per window per API key or dashboard user; 0 turns rate limiting off. */
  readonly rateLimitMax: number;
  readonly rateLimitWindowSeconds: number;
  /** Shared rate-limit counters across instances; in memory when unset. */
  readonly redisUrl: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigOverrides {
  port?: string | undefined;
  host?: string | undefined;
  databaseUrl?: string | undefined;
}

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integerIn(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function isSupportedDatabaseUrl(url: string): boolean {
  return url.startsWith('sqlite:') || url.startsWith('postgres://') || url.startsWith('postgresql://');
}

function urlValue(name: string, raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    return raw;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
}

let cachedDefaultBuild: string | undefined;

/** Package version plus the git commit when the service runs from a checkout. */
export function defaultBuildId(): string {
  if (cachedDefaultBuild !== undefined) return cachedDefaultBuild;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version: string };
  let sha = '';
  try {
    sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    sha = '';
  }
  cachedDefaultBuild = sha ? `${pkg.version}+${sha}` : pkg.version;
  return cachedDefaultBuild;
}

/** Parses the environment once into a frozen Config; any invalid value throws a ConfigError naming it. */
export function loadConfig(env: Env = process.env, overrides: ConfigOverrides = {}): Config {
  const portRaw = overrides.port ?? nonEmpty(env, 'PORT') ?? '3000';
  const port = integerIn(overrides.port !== undefined ? '--port' : 'PORT', portRaw, 0, 65535);
  const host = overrides.host ?? nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const databaseUrl = overrides.databaseUrl ?? nonEmpty(env, 'DATABASE_URL') ?? 'sqlite:./data/gateway.db';
  if (!isSupportedDatabaseUrl(databaseUrl)) {
    const name = overrides.databaseUrl !== undefined ? '--database-url' : 'DATABASE_URL';
    throw new ConfigError(`${name} must start with sqlite:, postgres:// or postgresql://`);
  }
  const logLevelRaw = nonEmpty(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevelRaw as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevelRaw}"`);
  }
  const jwksRaw = nonEmpty(env, 'JWT_JWKS_URL');
  const redisUrl = nonEmpty(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  }
  const timeoutRaw = nonEmpty(env, 'SHIFT_TIMEOUT_SECONDS') ?? '300';
  return Object.freeze({
    port,
    host,
    databaseUrl,
    gatewayEnv: nonEmpty(env, 'GATEWAY_ENV') ?? 'development',
    jwtSecret: nonEmpty(env, 'JWT_SECRET'),
    jwtJwksUrl: jwksRaw === undefined ? undefined : urlValue('JWT_JWKS_URL', jwksRaw),
    jwtIssuer: nonEmpty(env, 'JWT_ISSUER'),
    jwtAudience: nonEmpty(env, 'JWT_AUDIENCE'),
    shiftTimeoutSeconds: integerIn('SHIFT_TIMEOUT_SECONDS', timeoutRaw, 1, 86_400),
    logLevel: logLevelRaw as LogLevel,
    buildId: nonEmpty(env, 'BUILD_ID') ?? defaultBuildId(),
    rateLimitMax: integerIn('RATE_LIMIT_MAX', nonEmpty(env, 'RATE_LIMIT_MAX') ?? '6000', 0, 1_000_000_000),
    rateLimitWindowSeconds: integerIn(
      'RATE_LIMIT_WINDOW_SECONDS',
      nonEmpty(env, 'RATE_LIMIT_WINDOW_SECONDS') ?? '60',
      1,
      86_400,
    ),
    redisUrl,
  });
}
