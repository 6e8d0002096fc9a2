import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loggerOptions } from '../../src/http/logging.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { ConfigError, loadConfig } from '../../src/shared/config.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/app.ts';
import { runCli } from '../helpers/cli.ts';
import { bearer, buildFixture, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

const NOW = Date.parse('2026-03-11T12:00:10Z');
const CLIENT = '203.0.113.7';
/** What a TLS-terminating proxy in front of the gateway adds to each request it passes on. */
const FORWARDED = {
  'x-forwarded-for': CLIENT,
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'gateway.example.com',
};

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A plain HTTP/1.1 request from 127.0.0.1, as the proxy on the same machine sends it. */
function send(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers, localAddress: '127.0.0.1' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface LoggedRequest {
  readonly msg: string;
  readonly req?: { readonly url: string; readonly remoteAddress: string };
}

/** A gateway listening on 127.0.0.1 with the product's logger, its lines collected. */
async function listening(ctx: TestContext, env: Record<string, string>) {
  const lines: LoggedRequest[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LoggedRequest);
      done();
    },
  });
  const logger = { ...(loggerOptions('info') as Record<string, unknown>), stream: sink };
  const app: FastifyInstance = await buildApp({
    config: testConfig({ RATE_LIMIT_MAX: '3', ...env }),
    store: ctx.store,
    clock: new ManualClock(NOW),
    logger,
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    base,
    /** The client address each incoming request was logged with, for `path`. */
    loggedAddresses: (path: string) =>
      lines.filter((line) => line.msg === 'incoming request' && line.req?.url === path).map((line) => line.req?.remoteAddress),
    close: () => app.close(),
  };
}

const serversUrl = (answer: Answer) => (JSON.parse(answer.body) as { servers: { url: string }[] }).servers[0]?.url;

describe.each(STORE_KINDS)('TRUST_PROXY on a listening gateway (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture({ extraKeys: { other: {} } });

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('a trusted proxy: the forwarded client address is logged, and the document names the address the client used', async () => {
    const gateway = await listening(ctx, { TRUST_PROXY: '127.0.0.1' });
    try {
      expect((await send(gateway.base, '/health', FORWARDED)).status).toBe(200);
      expect(gateway.loggedAddresses('/health')).toEqual([CLIENT]);
      const forwarded = await send(gateway.base, '/openapi.json', FORWARDED);
      expect(serversUrl(forwarded)).toBe('https://gateway.example.com');
      // A request from the same peer without forwarded headers did not come through the proxy.
      const direct = await send(gateway.base, '/openapi.json', {});
      expect(serversUrl(direct)).toBe(gateway.base);
      // Apart from that address, one document.
      const withBase = (answer: Answer, url: string) => answer.body.replace(JSON.stringify(serversUrl(answer)), JSON.stringify(url));
      expect(withBase(forwarded, 'x')).toBe(withBase(direct, 'x'));
      expect(forwarded.headers['content-type']).toBe(direct.headers['content-type']);
    } finally {
      await gateway.close();
    }
  });

  it('no TRUST_PROXY: the forwarded headers are ignored (peer address logged, listening address named)', async () => {
    const gateway = await listening(ctx, {});
    try {
      expect((await send(gateway.base, '/health', FORWARDED)).status).toBe(200);
      expect(gateway.loggedAddresses('/health')).toEqual(['127.0.0.1']);
      expect(serversUrl(await send(gateway.base, '/openapi.json', FORWARDED))).toBe(gateway.base);
    } finally {
      await gateway.close();
    }
  });

  it('a proxy trusted at another address: the peer is not it, so its headers are ignored', async () => {
    const gateway = await listening(ctx, { TRUST_PROXY: '10.0.0.0/8,fd00::/8' });
    try {
      await send(gateway.base, '/health', FORWARDED);
      expect(gateway.loggedAddresses('/health')).toEqual(['127.0.0.1']);
      expect(serversUrl(await send(gateway.base, '/openapi.json', FORWARDED))).toBe(gateway.base);
    } finally {
      await gateway.close();
    }
  });

  it('PUBLIC_BASE_URL wins over the forwarded address; the client address is still the forwarded one', async () => {
    const gateway = await listening(ctx, { TRUST_PROXY: 'loopback', PUBLIC_BASE_URL: 'https://api.example.org/gw' });
    try {
      expect(serversUrl(await send(gateway.base, '/openapi.json', FORWARDED))).toBe('https://api.example.org/gw');
      expect(gateway.loggedAddresses('/openapi.json')).toEqual([CLIENT]);
    } finally {
      await gateway.close();
    }
  });

  // The limiter keys on the authenticated key or user (src/http/rate-limit.ts), never on an address: a client
  // behind the proxy cannot get a fresh budget by sending another X-Forwarded-For, trusted or not.
  for (const trust of ['127.0.0.1', undefined]) {
    it(`rate limits count per key whatever address is forwarded (TRUST_PROXY ${trust ?? 'unset'})`, async () => {
      const gateway = await listening(ctx, trust === undefined ? {} : { TRUST_PROXY: trust });
      try {
        const answers: string[] = [];
        for (let i = 0; i < 4; i += 1) {
          const headers = { ...bearer(fixture.keys.other.secret), ...FORWARDED, 'x-forwarded-for': `198.51.100.${i + 1}` };
          const answer = await send(gateway.base, '/v1/integration', headers);
          answers.push(`${answer.status} ${String(answer.headers.ratelimit)}`);
        }
        expect(answers).toEqual([
          '200 "default";r=2;t=50',
          '200 "default";r=1;t=50',
          '200 "default";r=0;t=50',
          '429 "default";r=0;t=50',
        ]);
        const logged = gateway.loggedAddresses('/v1/integration');
        expect(logged).toEqual(trust === undefined ? Array(4).fill('127.0.0.1') : ['1', '2', '3', '4'].map((n) => `198.51.100.${n}`));
      } finally {
        await gateway.close();
      }
    });
  }
});

describe('TRUST_PROXY setting', () => {
  it('trusts no proxy by default, or with false', () => {
    expect(loadConfig({ BUILD_ID: 'b' }).trustProxy).toEqual([]);
    expect(loadConfig({ BUILD_ID: 'b', TRUST_PROXY: 'false' }).trustProxy).toEqual([]);
  });

  it('reads addresses, CIDR ranges and named ranges, separated by commas', () => {
    const config = loadConfig({ BUILD_ID: 'b', TRUST_PROXY: ' 127.0.0.1, ::1,10.0.0.0/8 ,fd00::/8,uniquelocal,127.0.0.1' });
    expect(config.trustProxy).toEqual(['127.0.0.1', '::1', '10.0.0.0/8', 'fd00::/8', 'uniquelocal']);
  });

  it('serve refuses to start with an invalid value, naming the variable', async () => {
    const result = await runCli(['serve', '--port', '0', '--database-url', 'sqlite::memory:'], { TRUST_PROXY: 'true' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('invalid configuration: TRUST_PROXY must list');
    expect(result.stderr).toContain('got "true"');
  });

  it.each(['true', '*', 'proxy.internal', '10.0.0.0/33', '1', '10.0.0.1/8/8'])('refuses %s with a message naming it', (value) => {
    expect(() => loadConfig({ BUILD_ID: 'b', TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ BUILD_ID: 'b', TRUST_PROXY: value })).toThrow(`TRUST_PROXY must list`);
  });
});
