import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/shared/config.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { bearer, buildFixture, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

const LISTED = 'https://dashboard.example.com';
const ALSO_LISTED = 'http://localhost:5173';
const UNLISTED = 'https://evil.example.net';

function corsHeaders(headers: Record<string, unknown>): string[] {
  return Object.keys(headers).filter((name) => name.startsWith('access-control-'));
}

const preflight = (origin: string | undefined, url: string, method = 'POST') => ({
  method: 'OPTIONS' as const,
  url,
  headers: {
    ...(origin === undefined ? {} : { origin }),
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization, content-type, idempotency-key, x-correlation-id',
  },
});

describe.each(STORE_KINDS)('CORS off by default (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('no response carries CORS headers, whatever the Origin', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/health', headers: { origin: LISTED } });
    expect(res.statusCode).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
  });

  it('a preflight is the usual 405 (known path) or 404 (unknown path), in the envelope', async () => {
    const known = await ctx.inject(preflight(LISTED, '/v1/activity/shifts/start'));
    expect(known.statusCode).toBe(405);
    expect(String(known.headers.allow)).toContain('POST');
    expect(known.json().error.code).toBe('method_not_allowed');
    expect(corsHeaders(known.headers)).toEqual([]);
    const unknown = await ctx.inject(preflight(LISTED, '/v1/nope'));
    expect(unknown.statusCode).toBe(404);
    expect(corsHeaders(unknown.headers)).toEqual([]);
  });
});

describe.each(STORE_KINDS)('CORS for listed origins (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture();
  beforeAll(async () => {
    ctx = await createTestContext(kind, { env: { CORS_ORIGINS: `${LISTED}, ${ALSO_LISTED}` } });
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('answers a listed origin\'s preflight 204, allowing Idempotency-Key and X-Correlation-Id', async () => {
    for (const origin of [LISTED, ALSO_LISTED]) {
      // Preflights are answered before routing; the document describes the API, not the CORS protocol.
      const res = await ctx.app.inject(preflight(origin, '/v1/activity/shifts/start'));
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(String(res.headers['access-control-allow-methods']).split(/\s*,\s*/)).toContain('POST');
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-correlation-id']));
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/origin/i);
    }
  });

  it('exposes X-Request-Id and the rate-limit headers on answers to a listed origin, errors included', async () => {
    const ok = await ctx.inject({
      method: 'GET',
      url: '/v1/integration',
      headers: { origin: LISTED, ...bearer(fixture.keys.test.secret) },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(LISTED);
    const exposed = String(ok.headers['access-control-expose-headers']).toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after']));
    expect(ok.headers.ratelimit).toBeDefined();

    const refused = await ctx.inject({ method: 'GET', url: '/v1/integration', headers: { origin: LISTED } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(LISTED);
    const missing = await ctx.inject({ method: 'GET', url: '/v1/nope', headers: { origin: LISTED } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe(LISTED);
  });

  it('an unlisted origin gets no CORS headers: its preflight is the usual 405/404', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/health', headers: { origin: UNLISTED } });
    expect(res.statusCode).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
    const known = await ctx.inject(preflight(UNLISTED, '/v1/activity/shifts/start'));
    expect(known.statusCode).toBe(405);
    expect(String(known.headers.allow)).toContain('POST');
    expect(corsHeaders(known.headers)).toEqual([]);
    const unknown = await ctx.inject(preflight(UNLISTED, '/v1/nope'));
    expect(unknown.statusCode).toBe(404);
    expect(corsHeaders(unknown.headers)).toEqual([]);
    // An origin differing only in scheme or port is another origin.
    const near = await ctx.inject({ method: 'GET', url: '/health', headers: { origin: 'http://dashboard.example.com' } });
    expect(corsHeaders(near.headers)).toEqual([]);
  });

  it('OPTIONS without a preflight stays 405 with Allow on known paths and 404 on unknown ones', async () => {
    const known = await ctx.inject({ method: 'OPTIONS', url: '/health' });
    expect(known.statusCode).toBe(405);
    expect(String(known.headers.allow)).toContain('GET');
    expect(known.json().error.code).toBe('method_not_allowed');
    const unknown = await ctx.inject({ method: 'OPTIONS', url: '/v1/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
    expect(unknown.json().error.requestId).toBe(unknown.headers['x-request-id']);
  });

  it('CORS_ORIGINS accepts only exact origins', () => {
    expect(loadConfig({ CORS_ORIGINS: `${LISTED},${ALSO_LISTED},${LISTED}` }).corsOrigins).toEqual([LISTED, ALSO_LISTED]);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    for (const bad of ['*', 'dashboard.example.com', 'https://dashboard.example.com/', 'https://x.example/app', 'ftp://x.example']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });
});
