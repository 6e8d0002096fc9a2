import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { bearer, buildFixture, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

/**
 * docs/DEPLOYING.md, "Testing from Studio": an unpublished place reports `game.GameId` 0, which the Roblox module
 * sends as universeId 0. An application whose allowedUniverseIds holds "0" accepts it; one without it refuses it.
 */
describe.each(STORE_KINDS)('a game server in Studio, universe 0 (%s)', (kind) => {
  let ctx: TestContext;
  const studio = buildFixture({ allowedUniverseIds: ['0'] });
  const production = buildFixture({ allowedUniverseIds: ['4242001'] });

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    await seed(ctx, studio);
    await seed(ctx, production);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const start = (secret: string, gameUserId: string) =>
    ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/start',
      headers: { ...bearer(secret), 'idempotency-key': `studio-${gameUserId}-${secret.slice(-6)}` },
      payload: { gameUserId: Number(gameUserId), universeId: 0, placeId: 0, serverId: 'studio-0b1c' },
    });

  it('a test application that allows universe "0" takes the shift, under its test key', async () => {
    const res = await start(studio.keys.test.secret, studio.staff.alice.gameUserId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { shift: { status: 'active' }, existing: false } });
  });

  it('an application that lists only the published universe refuses it: 403 universe_not_allowed', async () => {
    const res = await start(production.keys.test.secret, production.staff.alice.gameUserId);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: 'universe_not_allowed' } });
  });
});
