import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../src/cli-args.js';
import { ConfigError, loadConfig } from '../src/config.js';

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
    });
    expect(Object.isFrozen(config)).toBe(true);
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
    });
    expect(config).toMatchObject({
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
  ])('an invalid value stops start-up naming the variable: %o', (env, pattern) => {
    expect(() => loadConfig({ BUILD_ID: 'b', ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ BUILD_ID: 'b', ...env })).toThrow(pattern);
  });

  it('an invalid flag value names the flag', () => {
    expect(() => loadConfig({ BUILD_ID: 'b' }, { port: 'x' })).toThrow(/--port/);
  });

  it('the default build id is the package version, with the commit when known', () => {
    expect(loadConfig({}).buildId).toMatch(/^\d+\.\d+\.\d+(\+[0-9a-f]+)?$/);
  });
});

describe('command line arguments', () => {
  it('parses a command, positionals and flags in both spellings', () => {
    expect(parseArgs(['provision', 'doc.json', '--database-url', 'sqlite:x.db', '--port=9'])).toEqual({
      command: 'provision',
      positionals: ['doc.json'],
      overrides: { databaseUrl: 'sqlite:x.db', port: '9' },
    });
  });

  it('rejects unknown flags and flags without a value', () => {
    expect(() => parseArgs(['serve', '--verbose'])).toThrow(UsageError);
    expect(() => parseArgs(['serve', '--port'])).toThrow(UsageError);
  });
});
