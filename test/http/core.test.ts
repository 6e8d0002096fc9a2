import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { REDACT_PATHS } from '../../src/http/logging.ts';
import { createTestContext, DEFAULT_NOW, testConfig, type TestContext } from '../helpers/app.ts';
import { checkedInject } from '../helpers/contract.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

function submissionDocument(fixture: ReturnType<typeof buildFixture>, id: string) {
  fixture.workspace.submissions = [
    {
      id,
      status: 'submitted',
      score: null,
      reviewerNotes: null,
      applicant: { gameUserId: '2001', gameUsername: 'bob2', displayName: 'Bob Two', chatUserId: '7771' },
      answers: { why: 'because' },
      createdAt: '2026-03-01T00:00:00Z',
    },
  ];
}

describe.each(STORE_KINDS)('HTTP core (%s)', (kind) => {
  let ctx: TestContext;
  let token: string;
  const fixture = buildFixture();
  const submissionId = '5b1c2d3e-0000-4000-8000-00000000c0de';
  submissionDocument(fixture, submissionId);

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    await seed(ctx, fixture);
    token = await dashboardToken(REVIEWER_USER_ID);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const patch = (payload: string | undefined, headers: Record<string, string> = {}) =>
    ctx.inject({
      method: 'PATCH',
      url: `/v1/applications/submissions/${submissionId}/review`,
      headers: {
        authorization: `Bearer ${token}`,
        'idempotency-key': `core-${Math.random()}`,
        'content-type': 'application/json',
        ...headers,
      },
      ...(payload === undefined ? {} : { payload }),
    });

  it('malformed JSON is 400 invalid_json in the error envelope', async () => {
    const res = await patch('{"score": ');
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.requestId).toBe(res.headers['x-request-id']);
    expect(body.error.message).not.toMatch(/at .*\.js/);
  });

  it('a body that is not application/json is 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await patch('score=5', { 'content-type': type });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().error.code).toBe('unsupported_media_type');
    }
  });

  it('a body over 64 KiB is 413 payload_too_large', async () => {
    const res = await patch(JSON.stringify({ reviewerNotes: 'x'.repeat(70 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('unknown body properties are 400 validation_failed with details.issues naming them', async () => {
    const res = await patch(JSON.stringify({ score: 5, bogus: 1 }));
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'body.bogus' })]));
  });

  it('a JSON null body is a body that is not an object (400 validation_failed), also where the body may be left out', async () => {
    const accept = (payload: string) =>
      ctx.inject({
        method: 'POST',
        url: `/v1/applications/submissions/${submissionId}/accept`,
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': `core-${Math.random()}`, 'content-type': 'application/json' },
        payload,
      });
    for (const res of [await patch('null'), await accept('null'), await accept('[]')]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        requestId: res.headers['x-request-id'],
        details: { issues: [{ path: 'body', message: 'must be object' }] },
      });
    }
  });

  it('prototype-pollution keys are rejected, never merged', async () => {
    const res = await patch('{"__proto__": {"polluted": true}, "score": 5}');
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('authentication is checked before the body: no token with a broken body is 401', async () => {
    const res = await ctx.inject({
      method: 'PATCH',
      url: `/v1/applications/submissions/${submissionId}/review`,
      headers: { 'content-type': 'text/plain' },
      payload: 'garbage',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthenticated');
  });

  it('numeric query values must be plain decimal text: 0x10, " 5" and 1e1 are 400', async () => {
    for (const limit of ['0x10', '%205', '1e1', '']) {
      const res = await ctx.inject({
        method: 'GET',
        url: `/v1/activity/leaderboard?limit=${limit}`,
        headers: { authorization: `Bearer ${fixture.keys.test.secret}` },
      });
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    const ok = await ctx.inject({
      method: 'GET',
      url: '/v1/activity/leaderboard?limit=5',
      headers: { authorization: `Bearer ${fixture.keys.test.secret}` },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('every response carries a distinct X-Request-Id of the form req_ + base62', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      const res = await ctx.inject({ method: 'GET', url: '/health' });
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^req_[0-9A-Za-z]{16,}$/);
      ids.add(String(id));
    }
    expect(ids.size).toBe(5);
  });

  it('a client-sent X-Request-Id is not trusted as the request id', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/nothing', headers: { 'x-request-id': 'req_spoofed' } });
    expect(res.headers['x-request-id']).not.toBe('req_spoofed');
    expect(res.json().error.requestId).toBe(res.headers['x-request-id']);
  });
});

describe('logging', () => {
  it('never writes credentials to the log, even at trace level', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
    const fixture = buildFixture();
    const ctx = await createTestContext('sqlite');
    await seed(ctx, fixture);
    const app = await buildApp({
      config: testConfig(),
      store: ctx.store,
      clock: new ManualClock(DEFAULT_NOW),
      loggerInstance: logger,
    });
    try {
      const token = await dashboardToken(REVIEWER_USER_ID);
      const requests = [
        { method: 'GET' as const, url: '/v1/integration', headers: { authorization: `Bearer ${fixture.keys.test.secret}` } },
        { method: 'GET' as const, url: '/v1/integration', headers: { authorization: `Bearer ${fixture.keys.live.secret}x` } },
        {
          method: 'POST' as const,
          url: '/v1/applications/submissions/00000000-0000-4000-8000-000000000000/accept',
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'log-1' },
        },
      ];
      const inject = await checkedInject(app);
      for (const r of requests) await inject(r);
      const all = lines.join('');
      expect(all.length).toBeGreaterThan(0);
      for (const secret of [fixture.keys.test.secret, fixture.keys.live.secret, token]) {
        expect(all).not.toContain(secret);
        expect(all).not.toContain(secret.slice(8, 30));
      }
    } finally {
      await app.close();
      await ctx.close();
    }
  });
});
