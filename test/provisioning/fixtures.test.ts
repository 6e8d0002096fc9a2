import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEFAULT_NOW, TEST_JWT_SECRET, type TestContext } from '../helpers/app.ts';
import { bearer, buildFixture, dashboardToken, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

const secretKey = new TextEncoder().encode(TEST_JWT_SECRET);

describe.each(STORE_KINDS)('test fixtures (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const integration = (secret: string) =>
    ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(secret) });

  it('a seeded fixture serves its keys, its second workspace and its extra keys', async () => {
    const fixture = buildFixture({
      secondWorkspace: true,
      extraKeys: {
        revoked: { revoked: true },
        expired: { expiresAt: '2026-03-11T11:59:59Z' },
        reader: { scopes: ['activity:read'] },
      },
    });
    const result = await seed(ctx, fixture);
    expect(result.keys).toHaveLength(7);

    const res = await integration(fixture.keys.test.secret);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      workspace: { id: fixture.ids.workspaceId },
      environment: 'test',
      chat: { connected: true, guildId: fixture.guildId },
    });
    expect((await integration(fixture.keys.live.secret)).json().data.environment).toBe('live');
    expect((await integration(fixture.keys.reader.secret)).json().data.scopes).toEqual(['activity:read']);
    expect((await integration(fixture.second.keys.test.secret)).json().data.workspace.id).toBe(fixture.second.ids.workspaceId);
    expect((await integration(fixture.keys.revoked.secret)).statusCode).toBe(401);
    expect((await integration(fixture.keys.expired.secret)).statusCode).toBe(401);
  });

  it('variants: an unapproved application, a disabled feature', async () => {
    const unapproved = buildFixture({ approved: false });
    const featureOff = buildFixture({ features: { activity: false } });
    await seed(ctx, unapproved);
    await seed(ctx, featureOff);
    expect((await integration(unapproved.keys.test.secret)).json().error.code).toBe('application_not_approved');
    expect((await integration(featureOff.keys.test.secret)).json().error.code).toBe('feature_disabled');
  });

  it('variants: no chat binding, an empty universe list, a time zone', async () => {
    const fixture = buildFixture({ chat: null, allowedUniverseIds: [], timezone: 'Europe/Berlin' });
    await seed(ctx, fixture);
    const data = (await integration(fixture.keys.test.secret)).json().data;
    expect(data.chat).toMatchObject({ connected: false, guildId: null });
    const workspace = await ctx.store.db
      .selectFrom('workspaces')
      .select('timezone')
      .where('id', '=', fixture.ids.workspaceId)
      .executeTakeFirstOrThrow();
    expect(workspace.timezone).toBe('Europe/Berlin');
  });
});

describe('dashboardToken', () => {
  it('signs HS256 with the test secret, expiring one hour after DEFAULT_NOW', async () => {
    const token = await dashboardToken('user-reviewer');
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const { payload } = await jwtVerify(token, secretKey, { currentDate: new Date(DEFAULT_NOW) });
    expect(payload).toEqual({ sub: 'user-reviewer', exp: DEFAULT_NOW / 1000 + 3600 });
  });

  it('can omit exp and set iss, aud and nbf', async () => {
    const token = await dashboardToken('u', { expiresAt: null, issuer: 'idp', audience: 'gateway', notBefore: DEFAULT_NOW });
    const { payload } = await jwtVerify(token, secretKey, { currentDate: new Date(DEFAULT_NOW) });
    expect(payload).toEqual({ sub: 'u', iss: 'idp', aud: 'gateway', nbf: DEFAULT_NOW / 1000 });
  });
});
