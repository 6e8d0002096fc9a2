import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';

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
  /** Longest wait for a request's line and headers, from the first byte (408 `request_timeout` after it). */
  readonly headersTimeoutMs: number;
  /** Longest wait for a whole request, headers and body (408 `request_timeout`); also the longest silence on a busy connection. */
  readonly requestTimeoutMs: number;
  /** How long a kept-alive connection may wait, idle, for its next request before it is closed. */
  readonly keepAliveTimeoutMs: number;
  /** After SIGTERM/SIGINT: how long in-flight requests get before the remaining connections are closed. */
  readonly shutdownTimeoutSeconds: number;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  readonly metricsToken: string | undefined;
  /** Browser origins allowed by CORS (exact `scheme://host[:port]`); empty: CORS off. */
  readonly corsOrigins: readonly string[];
  /** Absolute base address clients use (named in the OpenAPI document); the listening address when unset. */
  readonly publicBaseUrl: string | undefined;
  /** Lets webhook endpoints resolve to loopback, private or link-local addresses (development and tests). */
  readonly webhookAllowPrivateNetworks: boolean;
  /** Internal tuning of webhook delivery, for tests; the defaults are the product's behaviour. */
  readonly webhookTuning: WebhookTuning;
  /** Roblox Open Cloud's address, for the rank sync (ROBLOX_API_URL). */
  readonly robloxApiUrl: string;
  /** The rank sync's first retry delay in ms (ROBLOX_SYNC_RETRY_FIRST_DELAY_MS; tests shorten it). */
  readonly robloxSyncRetryFirstDelayMs: number;
  /**
   * Addresses, CIDR ranges or named ranges (loopback, linklocal, uniquelocal) of the reverse proxies whose
   * X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host are believed; empty: trust no proxy.
   */
  readonly trustProxy: readonly string[];
  /** Connections of the API's PostgreSQL pool (the webhook dispatcher has its own two). */
  readonly databasePoolSize: number;
  /** PostgreSQL: longest wait to open a connection or for a free one, before the request is answered 503. */
  readonly databaseConnectTimeoutMs: number;
  /** PostgreSQL: longest statement, lock wait or idle transaction of the serving process; 0 turns it off. */
  readonly databaseStatementTimeoutMs: number;
  /** PostgreSQL: an unused connection of the pool is closed after this long. */
  readonly databaseIdleTimeoutMs: number;
  /**
   * The key the gateway signs its own dashboard tokens with (base64url of 32 or more bytes); when unset, a random
   * key generated on first use and stored in the database (src/auth/keys/dashboard-token.ts).
   */
  readonly dashboardSigningKey: string | undefined;
  /**
   * Command and event records, webhook events, deliveries and attempts, and console sign-in codes older than this
   * many days are pruned; 0 keeps them.
   */
  readonly retentionDays: number;
}

export interface WebhookTuning {
  /** Delay before the first retry (jittered, then doubling). */
  readonly retryFirstDelayMs: number;
  /** How long a claimed delivery stays with the instance that claimed it (a crashed one gives it up after this). */
  readonly leaseMs: number;
  /** How often an instance looks for due deliveries when it found none. */
  readonly pollIntervalMs: number;
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

function booleanValue(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function webhookTuning(env: Env): WebhookTuning {
  const setting = (name: string, fallback: number, min: number, max: number) =>
    integerIn(name, nonEmpty(env, name) ?? String(fallback), min, max);
  return Object.freeze({
    retryFirstDelayMs: setting('WEBHOOK_RETRY_FIRST_DELAY_MS', 30_000, 1, 60_000),
    leaseMs: setting('WEBHOOK_LEASE_MS', 60_000, 100, 3_600_000),
    pollIntervalMs: setting('WEBHOOK_POLL_INTERVAL_MS', 1_000, 10, 60_000),
  });
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

/** CORS_ORIGINS: comma-separated origins, each exactly `http(s)://host[:port]` (what a browser sends in Origin). */
function corsOrigins(raw: string | undefined): readonly string[] {
  if (raw === undefined) return Object.freeze([]);
  const origins = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== origin) {
      throw new ConfigError(
        `CORS_ORIGINS must list origins such as https://dashboard.example.com (scheme, host and optional port, ` +
          `no path or trailing slash), separated by commas; got "${origin}"`,
      );
    }
  }
  return Object.freeze([...new Set(origins)]);
}

/** An http(s) base address without a trailing slash, query or fragment. */
function baseUrlValue(name: string, raw: string): string {
  const url = new URL(urlValue(name, raw));
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(`${name} must be a plain http(s) base address (no credentials, query or fragment), got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

let cachedDefaultBuild: string | undefined;

/** Package version plus the git commit when the service runs from a checkout. */
export function defaultBuildId(): string {
  if (cachedDefaultBuild !== undefined) return cachedDefaultBuild;
  const root = fileURLToPath(new URL('../..', import.meta.url));
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
  const timeouts = connectionTimeouts(env);
  const publicBaseUrlRaw = nonEmpty(env, 'PUBLIC_BASE_URL');
  return Object.freeze({
    port,
    host,
    databaseUrl,
    // A production install (NODE_ENV=production, as the image and the systemd unit set) says so unless told otherwise.
    gatewayEnv: nonEmpty(env, 'GATEWAY_ENV') ?? (env.NODE_ENV === 'production' ? 'production' : 'development'),
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
    ...timeouts,
    metricsToken: nonEmpty(env, 'METRICS_TOKEN'),
    corsOrigins: corsOrigins(nonEmpty(env, 'CORS_ORIGINS')),
    publicBaseUrl: publicBaseUrlRaw === undefined ? undefined : baseUrlValue('PUBLIC_BASE_URL', publicBaseUrlRaw),
    webhookAllowPrivateNetworks: booleanValue(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
      nonEmpty(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'),
    ),
    webhookTuning: webhookTuning(env),
    robloxApiUrl: urlValue('ROBLOX_API_URL', nonEmpty(env, 'ROBLOX_API_URL') ?? 'https://apis.roblox.com'),
    robloxSyncRetryFirstDelayMs: integerIn(
      'ROBLOX_SYNC_RETRY_FIRST_DELAY_MS',
      nonEmpty(env, 'ROBLOX_SYNC_RETRY_FIRST_DELAY_MS') ?? '30000',
      1,
      600_000,
    ),
    trustProxy: trustedProxies(nonEmpty(env, 'TRUST_PROXY')),
    databasePoolSize: integerIn('DATABASE_POOL_SIZE', nonEmpty(env, 'DATABASE_POOL_SIZE') ?? '10', 1, 100),
    ...databaseTimeouts(env),
    dashboardSigningKey: signingKeyValue('DASHBOARD_SIGNING_KEY', nonEmpty(env, 'DASHBOARD_SIGNING_KEY')),
    retentionDays: integerIn('RETENTION_DAYS', nonEmpty(env, 'RETENTION_DAYS') ?? '180', 0, 36_500),
  });
}

/** base64url (unpadded) of at least 32 bytes: an HS256 key as strong as its hash. */
function signingKeyValue(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(raw) || Buffer.from(raw, 'base64url').length < 32) {
    throw new ConfigError(`${name} must be base64url of at least 32 random bytes (43 or more characters)`);
  }
  return raw;
}

/** The named ranges @fastify/proxy-addr (Fastify's trustProxy) understands. */
const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: comma-separated addresses, CIDR ranges or named ranges. `true` (trust every peer) is refused: the
 * gateway is often reachable directly too, and then any client could choose the address it is logged and counted
 * under; a platform whose proxy address is not fixed still proxies from its private network (`uniquelocal`, or
 * its range). `false` or unset trusts no proxy.
 */
function trustedProxies(raw: string | undefined): readonly string[] {
  if (raw === undefined || raw === 'false') return Object.freeze([]);
  const entries = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const entry of entries) {
    if (NAMED_PROXY_RANGES.includes(entry) || isAddressOrRange(entry)) continue;
    throw new ConfigError(
      `TRUST_PROXY must list the reverse proxy's addresses or CIDR ranges (such as 127.0.0.1,10.0.0.0/8) or ` +
        `${NAMED_PROXY_RANGES.join(', ')}, separated by commas; got "${entry}"` +
        (entry === 'true' ? ' (trusting every peer would let any client set its own address)' : ''),
    );
  }
  return Object.freeze([...new Set(entries)]);
}

/** An IPv4 address in dotted-quad form or an IPv6 address, optionally with a prefix length (`/n`). */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const isAddress = ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address);
  if (!isAddress || rest.length > 0) return false;
  if (prefix === undefined) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

type DatabaseTimeoutSettings = Pick<
  Config,
  'databaseConnectTimeoutMs' | 'databaseStatementTimeoutMs' | 'databaseIdleTimeoutMs'
>;

/**
 * How long the serving process waits for PostgreSQL (docs/CONFIGURATION.md): short enough that a request meeting
 * a database that went away is answered 503 well within 10 s, long enough for any statement the API runs.
 */
function databaseTimeouts(env: Env): DatabaseTimeoutSettings {
  const ms = (name: string, fallback: string, min: number) => integerIn(name, nonEmpty(env, name) ?? fallback, min, 600_000);
  return {
    databaseConnectTimeoutMs: ms('DATABASE_CONNECT_TIMEOUT_MS', '2000', 100),
    databaseStatementTimeoutMs: ms('DATABASE_STATEMENT_TIMEOUT_MS', '4000', 0),
    databaseIdleTimeoutMs: ms('DATABASE_IDLE_TIMEOUT_MS', '30000', 1000),
  };
}

type ConnectionTimeouts = Pick<
  Config,
  'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'shutdownTimeoutSeconds'
>;

/**
 * Every phase of a connection has a bound: a game server on the internet sends a request of a few hundred bytes,
 * so a client still sending headers after 10 s or a body after 30 s is broken or hostile. Keep-alive outlasts
 * the usual 60 s idle timeout of load balancers in front of the service (and a 30 s heartbeat interval).
 */
function connectionTimeouts(env: Env): ConnectionTimeouts {
  const ms = (name: string, fallback: string) => integerIn(name, nonEmpty(env, name) ?? fallback, 100, 3_600_000);
  const headersTimeoutMs = ms('HEADERS_TIMEOUT_MS', '10000');
  const requestTimeoutMs = ms('REQUEST_TIMEOUT_MS', '30000');
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: ms('KEEP_ALIVE_TIMEOUT_MS', '72000'),
    shutdownTimeoutSeconds: integerIn(
      'SHUTDOWN_TIMEOUT_SECONDS',
      nonEmpty(env, 'SHUTDOWN_TIMEOUT_SECONDS') ?? '20',
      1,
      3_600,
    ),
  };
}
