import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { bearer } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { exchange, linkCode, REVIEWER_CHAT_USER, seedConsoleWorld, type ConsoleWorld } from './helpers.ts';

interface Session {
  token: string;
  expiresAt: string;
  userId: string;
}

const MINUTE = 60_000;

describe.each(STORE_KINDS)('POST /v1/console/sessions (%s)', (kind) => {
  let ctx: TestContext;
  let world: ConsoleWorld;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    world = await seedConsoleWorld(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  // Each test in a window of failures of its own (they are counted per address and minute).
  beforeEach(() => ctx.clock.advance(MINUTE));

  /** The answer to a refused exchange, without what differs per request. */
  const refusal = (res: Awaited<ReturnType<typeof exchange>>) => {
    const { error } = res.json() as { error: { code: string; message: string; requestId: string } };
    expect(error.requestId).toBe(res.headers['x-request-id']);
    return { status: res.statusCode, code: error.code, message: error.message };
  };

  it('exchanges a code for a gateway-signed dashboard token of the member, valid 8 hours', async () => {
    const code = await linkCode(ctx, world);
    const res = await exchange(ctx, code);
    expect(res.statusCode, res.body).toBe(200);
    const { data, meta } = res.json() as { data: Session; meta: { requestId: string } };
    expect(data.userId).toBe(world.users.manager);
    expect(data.expiresAt).toBe(new Date(Math.floor(ctx.clock.now() / 1000) * 1000 + 8 * 3_600_000).toISOString());
    expect(decodeJwt(data.token)).toMatchObject({ sub: world.users.manager, iss: 'workspace-gateway' });
    expect(meta.requestId).toBe(res.headers['x-request-id']);
  });

  it('the token works on dashboard operations: the review queue of the member\'s workspace, not another\'s', async () => {
    const { token } = (await exchange(ctx, await linkCode(ctx, world, REVIEWER_CHAT_USER))).json().data as Session;
    const queue = (workspaceId: string) =>
      ctx.inject({
        method: 'GET',
        url: '/v1/applications/submissions',
        headers: { ...bearer(token), 'x-service-workspace-id': workspaceId },
      });
    const own = await queue(world.fixture.ids.workspaceId);
    expect(own.statusCode, own.body).toBe(200);
    const other = await queue(world.fixture.second.ids.workspaceId);
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('workspace_access_denied');
  });

  it('a code is usable once: the second exchange is 401, the same answer as an unknown or an expired code', async () => {
    const code = await linkCode(ctx, world);
    expect((await exchange(ctx, code)).statusCode).toBe(200);
    const used = refusal(await exchange(ctx, code));
    const unknown = refusal(await exchange(ctx, 'A'.repeat(43)));
    const expiring = await linkCode(ctx, world);
    ctx.clock.advance(10 * MINUTE - 1);
    const justInTime = await linkCode(ctx, world);
    ctx.clock.advance(1);
    const expired = refusal(await exchange(ctx, expiring));
    expect(used).toEqual({ status: 401, code: 'unauthenticated', message: expect.any(String) });
    expect(unknown).toEqual(used);
    expect(expired).toEqual(used);
    // A code is valid for 10 minutes: the one made 1 ms later still works.
    expect((await exchange(ctx, justInTime)).statusCode).toBe(200);
  });

  it('two exchanges of one code at once give exactly one token', async () => {
    for (let round = 0; round < 3; round += 1) {
      const code = await linkCode(ctx, world);
      const answers = await Promise.all(Array.from({ length: 4 }, () => exchange(ctx, code)));
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 401, 401, 401]);
    }
  });

  it('the body is checked: a missing or non-string code, or another property, is 400', async () => {
    for (const payload of [{}, { code: 12 }, { code: '' }, { code: 'abc', userId: 'x' }]) {
      const res = await ctx.inject({
        method: 'POST',
        url: '/v1/console/sessions',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    const noBody = await ctx.inject({ method: 'POST', url: '/v1/console/sessions' });
    expect(noBody.statusCode).toBe(400);
  });

  it('meta.correlationId echoes X-Correlation-Id', async () => {
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/console/sessions',
      headers: { 'content-type': 'application/json', 'x-correlation-id': 'console-1' },
      payload: JSON.stringify({ code: await linkCode(ctx, world) }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.correlationId).toBe('console-1');
  });

  it('after 10 failures from an address in a minute, every exchange from it is 429 until the minute ends', async () => {
    // The window starts at a whole minute on the clock.
    ctx.clock.set(Math.ceil(ctx.clock.now() / MINUTE) * MINUTE);
    const valid = await linkCode(ctx, world);
    for (let i = 0; i < 10; i += 1) expect((await exchange(ctx, `wrong${i}`)).statusCode).toBe(401);
    ctx.clock.advance(20_000);
    const limited = await exchange(ctx, valid);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('40');
    expect(limited.json().error).toMatchObject({
      code: 'rate_limited',
      details: { limit: 10, windowSeconds: 60, retryAfterSeconds: 40 },
    });
    ctx.clock.advance(40_000);
    // The refused valid code was not spent.
    expect((await exchange(ctx, valid)).statusCode).toBe(200);
  });
});
