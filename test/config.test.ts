import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/shared/config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ BUILD_ID: 'b1' });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/gateway.db',
      gatewayEnv: 'development',
      shiftTimeoutSeconds: 300,
      logLevel: 'info',
      buildId: 'b1',
      jwtSecret: undefined,
      rateLimitMax: 6000,
      rateLimitWindowSeconds: 60,
      redisUrl: undefined,
      publicBaseUrl: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names a production install (NODE_ENV=production) production in /version unless GATEWAY_ENV says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).gatewayEnv).toBe('production');
    expect(loadConfig({ NODE_ENV: 'production', GATEWAY_ENV: 'staging' }).gatewayEnv).toBe('staging');
    expect(loadConfig({ NODE_ENV: 'test' }).gatewayEnv).toBe('development');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@h:5432/db',
      GATEWAY_ENV: 'staging',
      JWT_SECRET: 's',
      JWT_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      JWT_ISSUER: 'https://idp.example/',
      JWT_AUDIENCE: 'gateway',
      SHIFT_TIMEOUT_SECONDS: '120',
      LOG_LEVEL: 'warn',
      BUILD_ID: 'x',
      PUBLIC_BASE_URL: 'https://gateway.example.com/api/',
    });
    expect(config).toMatchObject({
      publicBaseUrl: 'https://gateway.example.com/api',
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@h:5432/db',
      gatewayEnv: 'staging',
      jwtSecret: 's',
      jwtJwksUrl: 'https://idp.example/.well-known/jwks.json',
      jwtIssuer: 'https://idp.example/',
      jwtAudience: 'gateway',
      shiftTimeoutSeconds: 120,
      logLevel: 'warn',
    });
  });

  it('webhook destinations on private networks are refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS is true', () => {
    expect(loadConfig({ BUILD_ID: 'b' }).webhookAllowPrivateNetworks).toBe(false);
    expect(loadConfig({ BUILD_ID: 'b', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).webhookAllowPrivateNetworks).toBe(true);
    expect(loadConfig({ BUILD_ID: 'b', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }).webhookAllowPrivateNetworks).toBe(false);
    expect(() => loadConfig({ BUILD_ID: 'b', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false/,
    );
    expect(loadConfig({ BUILD_ID: 'b' }).webhookTuning).toEqual({
      retryFirstDelayMs: 30_000,
      leaseMs: 60_000,
      pollIntervalMs: 1_000,
    });
  });

  it('CLI flags override variables', () => {
    const config = loadConfig({ PORT: '1', HOST: 'a', DATABASE_URL: 'sqlite:a.db', BUILD_ID: 'b' }, {
      port: '4000',
      host: '::1',
      databaseUrl: 'sqlite::memory:',
    });
    expect(config).toMatchObject({ port: 4000, host: '::1', databaseUrl: 'sqlite::memory:' });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SHIFT_TIMEOUT_SECONDS: '0' }, /SHIFT_TIMEOUT_SECONDS/],
    [{ SHIFT_TIMEOUT_SECONDS: '1.5' }, /SHIFT_TIMEOUT_SECONDS/],
    [{ JWT_JWKS_URL: 'not a url' }, /JWT_JWKS_URL/],
    [{ RATE_LIMIT_MAX: '-1' }, /RATE_LIMIT_MAX/],
    [{ RATE_LIMIT_WINDOW_SECONDS: '0' }, /RATE_LIMIT_WINDOW_SECONDS/],
    [{ REDIS_URL: 'http://localhost' }, /REDIS_URL/],
    [{ PUBLIC_BASE_URL: 'gateway.example.com' }, /PUBLIC_BASE_URL/],
    [{ PUBLIC_BASE_URL: 'ftp://gateway.example.com' }, /PUBLIC_BASE_URL/],
    [{ PUBLIC_BASE_URL: 'https://gateway.example.com/?x=1' }, /PUBLIC_BASE_URL/],
  ])('an invalid value stops start-up naming the variable: %o', (env, pattern) => {
    expect(() => loadConfig({ BUILD_ID: 'b', ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ BUILD_ID: 'b', ...env })).toThrow(pattern);
  });

  it('RETENTION_DAYS is 180 days by default, 0 keeps everything, and anything but a whole number of days up to 100 years stops start-up', () => {
    expect(loadConfig({ BUILD_ID: 'b' }).retentionDays).toBe(180);
    expect(loadConfig({ BUILD_ID: 'b', RETENTION_DAYS: '0' }).retentionDays).toBe(0);
    expect(loadConfig({ BUILD_ID: 'b', RETENTION_DAYS: '30' }).retentionDays).toBe(30);
    for (const raw of ['-1', '1.5', 'forever', '36501']) {
      expect(() => loadConfig({ BUILD_ID: 'b', RETENTION_DAYS: raw })).toThrow(/RETENTION_DAYS/);
    }
  });

  it('an invalid flag value names the flag', () => {
    expect(() => loadConfig({ BUILD_ID: 'b' }, { port: 'x' })).toThrow(/--port/);
  });

  it('bounds every phase of a connection and the shutdown, with defaults for game servers on the internet', () => {
    expect(loadConfig({ BUILD_ID: 'b' })).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      shutdownTimeoutSeconds: 20,
    });
    const config = loadConfig({
      BUILD_ID: 'b',
      HEADERS_TIMEOUT_MS: '500',
      REQUEST_TIMEOUT_MS: '1000',
      KEEP_ALIVE_TIMEOUT_MS: '2000',
      SHUTDOWN_TIMEOUT_SECONDS: '3',
    });
    expect(config).toMatchObject({
      headersTimeoutMs: 500,
      requestTimeoutMs: 1000,
      keepAliveTimeoutMs: 2000,
      shutdownTimeoutSeconds: 3,
    });
  });

  it('rejects unbounded or inconsistent connection timeouts, naming the setting', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS must be between 100/);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS must be an integer/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(/SHUTDOWN_TIMEOUT_SECONDS must be between 1/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(ConfigError);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      /HEADERS_TIMEOUT_MS \(5000\) must not exceed REQUEST_TIMEOUT_MS \(1000\)/,
    );
  });

  it('the default build id is the package version, with the commit when known', () => {
    expect(loadConfig({}).buildId).toMatch(/^\d+\.\d+\.\d+(\+[0-9a-f]+)?$/);
  });

  it('DASHBOARD_SIGNING_KEY is base64url of at least 32 bytes; unset leaves the key to the database', () => {
    const key = Buffer.alloc(32, 7).toString('base64url');
    expect(loadConfig({ DASHBOARD_SIGNING_KEY: key }).dashboardSigningKey).toBe(key);
    expect(loadConfig({}).dashboardSigningKey).toBeUndefined();
    for (const raw of [Buffer.alloc(31, 7).toString('base64url'), `${key}=`, 'not base64url!']) {
      expect(() => loadConfig({ DASHBOARD_SIGNING_KEY: raw }), raw).toThrow(/DASHBOARD_SIGNING_KEY/);
    }
  });
});
