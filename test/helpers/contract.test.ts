/**
 * The contract check itself must be able to fail: real responses of a real app pass, and the same responses with a
 * documented header removed, malformed or contradicting the body are refused. Document variants (a header marked
 * required, a header behind `$ref`, a boolean header) are the served document with one change.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './app.ts';
import { checkedFetch, ContractChecker, ContractViolation, type CheckableResponse, type OpenApiDocument } from './contract.ts';
import { bearer, buildFixture, seed } from './fixtures.ts';
import { checkWire, send, type WireResponse } from '../reliability/serving.ts';

type ResponseHeaders = CheckableResponse['headers'];

/** `response` with its headers replaced by `edit(headers)`. */
function withHeaders(response: CheckableResponse, edit: (headers: Record<string, string | string[] | number | undefined>) => void): CheckableResponse {
  const headers = { ...response.headers };
  edit(headers);
  return { statusCode: response.statusCode, headers, body: response.body };
}

const without = (name: string) => (headers: Record<string, unknown>) => {
  delete headers[name];
};

describe('the OpenAPI contract check', () => {
  let ctx: TestContext;
  let checker: ContractChecker;
  let document: OpenApiDocument;
  const fixture = buildFixture();
  let ok: LightMyRequestResponse;
  let unauthenticated: LightMyRequestResponse;
  let limited: LightMyRequestResponse;
  let write: LightMyRequestResponse;

  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_SECONDS: '60' } });
    await seed(ctx, fixture);
    document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
    checker = new ContractChecker(document);
    ok = await ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(fixture.keys.test.secret) });
    limited = await ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(fixture.keys.test.secret) });
    unauthenticated = await ctx.inject({ method: 'GET', url: '/v1/integration' });
    write = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/start',
      headers: { ...bearer(fixture.keys.live.secret), 'idempotency-key': 'contract-1' },
      payload: { gameUserId: 'nobody', universeId: '42', placeId: '1', serverId: 's' },
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const refused = (method: string, url: string, response: CheckableResponse, message: RegExp, against = checker) =>
    expect(() => against.check(method, url, response)).toThrow(message);

  it('the real responses pass, and carry the headers the cases below take away', () => {
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-policy']).toBe('"default";q=1;w=60');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(unauthenticated.statusCode).toBe(401);
    expect(write.statusCode).toBeGreaterThanOrEqual(400);
    for (const [url, res] of [['/v1/integration', ok], ['/v1/integration', limited], ['/v1/integration', unauthenticated]] as const) {
      checker.check('GET', url, res);
    }
    checker.check('POST', '/v1/activity/shifts/start', write);
  });

  it('judges a path with dot segments as the server saw it (resolved by the client before sending)', async () => {
    // `/shifts/./stop` arrives as `/shifts/stop`: GET /shifts/{shiftId} with the id "stop", so a POST is 405.
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/activity/shifts/./stop', headers: bearer(fixture.keys.test.secret) });
    expect(res.statusCode).toBe(405);
    checker.check('POST', '/v1/activity/shifts/./stop', res);
    refused('POST', '/v1/activity/shifts/x/stop', res, /405 is not documented/);
  });

  it('refuses a missing or malformed X-Request-Id, on a success as on an error', () => {
    refused('GET', '/v1/integration', withHeaders(ok, without('x-request-id')), /missing or malformed X-Request-Id/);
    refused('GET', '/v1/integration', withHeaders(ok, (h) => (h['x-request-id'] = 'req_short')), /X-Request-Id/);
    refused('GET', '/v1/integration', withHeaders(unauthenticated, without('x-request-id')), /X-Request-Id/);
    // Also on an undocumented route's 404.
    refused('GET', '/nowhere', withHeaders(unauthenticated, without('x-request-id')), /X-Request-Id/);
  });

  it('refuses an error whose requestId is not its X-Request-Id', () => {
    const other = withHeaders(unauthenticated, (h) => (h['x-request-id'] = 'req_0000000000000000ZZ'));
    refused('GET', '/v1/integration', other, /error\.requestId .* is not X-Request-Id/);
    // An idempotent replay is the stored body of the first request, so its requestId is that request's.
    const id = { 'x-request-id': 'req_0000000000000000ZZ' };
    refused('POST', '/v1/activity/shifts/start', withHeaders(write, (h) => Object.assign(h, id)), /is not X-Request-Id/);
    checker.check('POST', '/v1/activity/shifts/start', withHeaders(write, (h) => Object.assign(h, id, { 'idempotent-replayed': 'true' })));
  });

  it('reads header names case-insensitively', () => {
    const headers: ResponseHeaders = Object.fromEntries(Object.entries(ok.headers).map(([k, v]) => [k.toUpperCase(), v]));
    checker.check('GET', '/v1/integration', { statusCode: ok.statusCode, headers, body: ok.body });
  });

  it('refuses a Retry-After that is not an integer on a 429', () => {
    for (const bad of ['soon', '1.5', '', ' 5', '0x10']) {
      refused('GET', '/v1/integration', withHeaders(limited, (h) => (h['retry-after'] = bad)), /header retry-after .* does not match/);
    }
    checker.check('GET', '/v1/integration', withHeaders(limited, (h) => (h['retry-after'] = '7')));
    checker.check('GET', '/v1/integration', withHeaders(limited, (h) => (h['retry-after'] = 7)));
  });

  it('refuses an Idempotent-Replayed other than "true" where the document declares it', () => {
    refused('POST', '/v1/activity/shifts/start', withHeaders(write, (h) => (h['idempotent-replayed'] = 'false')), /idempotent-replayed/);
    checker.check('POST', '/v1/activity/shifts/start', withHeaders(write, (h) => (h['idempotent-replayed'] = 'true')));
  });

  it('requires a header marked required: true', () => {
    const variant = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { headers: Record<string, { required?: boolean }> }> }>>;
    };
    const headers = variant.paths['/v1/integration']?.get?.responses['200']?.headers;
    if (!headers?.ratelimit) throw new Error('the document no longer declares RateLimit on GET /v1/integration 200');
    headers.ratelimit.required = true;
    const strict = new ContractChecker(variant as unknown as OpenApiDocument);
    strict.check('GET', '/v1/integration', ok);
    refused('GET', '/v1/integration', withHeaders(ok, without('ratelimit')), /required header ratelimit is missing/, strict);
    // Not required in the served document: its absence passes there.
    checker.check('GET', '/v1/integration', withHeaders(ok, without('ratelimit')));
  });

  it('resolves a header given by $ref, and applies its schema (a malformed RateLimit-Policy is refused)', () => {
    const variant = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { headers: Record<string, unknown> }> }>>;
      components: Record<string, unknown>;
    };
    variant.components.headers = {
      RateLimitPolicy: { required: true, schema: { type: 'string', pattern: '^"default";q=\\d+;w=\\d+$' } },
    };
    const headers = variant.paths['/v1/integration']?.get?.responses['200']?.headers;
    if (!headers) throw new Error('no headers on GET /v1/integration 200');
    headers['RateLimit-Policy'] = { $ref: '#/components/headers/RateLimitPolicy' };
    delete headers['ratelimit-policy'];
    const strict = new ContractChecker(variant as unknown as OpenApiDocument);
    strict.check('GET', '/v1/integration', ok);
    refused('GET', '/v1/integration', withHeaders(ok, (h) => (h['ratelimit-policy'] = 'q=1, w=60')), /RateLimit-Policy .* does not match/, strict);
    refused('GET', '/v1/integration', withHeaders(ok, without('ratelimit-policy')), /required header RateLimit-Policy/, strict);
  });

  it('reads "true"/"false" for a boolean header and a decimal for a number header', () => {
    const variant = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { headers: Record<string, unknown> }> }>>;
    };
    const headers = variant.paths['/v1/integration']?.get?.responses['200']?.headers;
    if (!headers) throw new Error('no headers on GET /v1/integration 200');
    headers['x-flag'] = { schema: { type: 'boolean' } };
    headers['x-ratio'] = { schema: { type: 'number', minimum: 0 } };
    const strict = new ContractChecker(variant as unknown as OpenApiDocument);
    strict.check('GET', '/v1/integration', withHeaders(ok, (h) => Object.assign(h, { 'x-flag': 'false', 'x-ratio': '0.25' })));
    refused('GET', '/v1/integration', withHeaders(ok, (h) => (h['x-flag'] = 'yes')), /x-flag/, strict);
    refused('GET', '/v1/integration', withHeaders(ok, (h) => (h['x-ratio'] = '-1')), /x-ratio/, strict);
    refused('GET', '/v1/integration', withHeaders(ok, (h) => (h['x-ratio'] = '1e3')), /x-ratio/, strict);
  });

  it('throws ContractViolation, so that a caller can tell it from a network failure', () => {
    let thrown: unknown;
    try {
      checker.check('GET', '/v1/integration', withHeaders(ok, without('x-request-id')));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContractViolation);
  });

  describe('over HTTP (the app listening on a port)', () => {
    let baseUrl: string;
    beforeAll(async () => {
      baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    });

    it('checkedFetch and the reliability send() check real answers, headers included', async () => {
      const health = await checkedFetch(baseUrl, '/health');
      expect(health.statusCode).toBe(200);
      const wire = await send(baseUrl, { method: 'GET', path: '/v1/integration', headers: {} });
      expect(wire.status).toBe(401);
      expect(wire.headers['x-request-id']).toMatch(/^req_/);
      // Undocumented paths answer the documented 404 envelope, which passes.
      expect((await send(baseUrl, { method: 'GET', path: '/v1/nowhere', headers: {} })).status).toBe(404);
    });

    it('send() and checkedFetch reject when a real server breaks the contract', async () => {
      // A second instance whose last onSend hook breaks the contract on two routes (its document is unchanged).
      const broken: FastifyInstance = await buildApp({ config: ctx.config, store: ctx.store, clock: ctx.clock, logger: false });
      broken.addHook('onSend', async (request, reply, payload) => {
        if (request.url === '/health') reply.removeHeader('x-request-id');
        if (request.url === '/v1/activity/shifts/start') reply.header('idempotent-replayed', 'false');
        return payload;
      });
      const brokenUrl = await broken.listen({ port: 0, host: '127.0.0.1' });
      try {
        await expect(send(brokenUrl, { method: 'GET', path: '/health', headers: {} })).rejects.toThrow(ContractViolation);
        await expect(checkedFetch(brokenUrl, '/health')).rejects.toThrow(/GET \/health 200: missing or malformed X-Request-Id/);
        const start = { method: 'POST', path: '/v1/activity/shifts/start', headers: {} } as const;
        await expect(send(brokenUrl, start)).rejects.toThrow(/header idempotent-replayed \("false"\) does not match/);
        // The routes left alone still pass.
        expect((await send(brokenUrl, { method: 'GET', path: '/version', headers: {} })).status).toBe(200);
      } finally {
        await broken.close();
      }
    });

    it('checkWire refuses the same answer without X-Request-Id', async () => {
      const wire = await send(baseUrl, { method: 'GET', path: '/v1/integration', headers: {} });
      const { ['x-request-id']: _dropped, ...rest } = wire.headers;
      const stripped: WireResponse = { ...wire, headers: rest };
      const served = await ContractChecker.fromUrl(baseUrl);
      expect(() => checkWire(served, { method: 'GET', path: '/v1/integration' }, stripped)).toThrow(ContractViolation);
    });
  });
});
