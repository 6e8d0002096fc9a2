import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { bearer, buildFixture, GUILD_ID, seed, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';

const NOW = Date.parse('2026-03-11T12:00:00Z');

const ROUTES = [
  { name: 'summary', url: '/v1/activity/me/summary', badUrl: '/v1/activity/me/summary' },
  { name: 'staff aggregate', url: '/v1/activity/staff/1001', badUrl: '/v1/activity/staff/1001?start=nope' },
  { name: 'leaderboard', url: '/v1/activity/leaderboard', badUrl: '/v1/activity/leaderboard?limit=0' },
] as const;

describe.each(STORE_KINDS)('activity report access (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture<'writeOnly' | 'staffOnly' | 'revoked'>;
  let disabled: Fixture;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    fixture = buildFixture({
      extraKeys: {
        writeOnly: { scopes: ['activity:write'] },
        staffOnly: { scopes: ['staff:read'] },
        revoked: { revoked: true },
      },
    });
    await seed(ctx, fixture);
    disabled = buildFixture({ features: { activity: false } });
    disabled.workspace.staff = disabled.workspace.staff?.map((s) => ({ ...s, gameUserId: `5${s.gameUserId}` }));
    await seed(ctx, disabled);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  function headers(secret: string | null, chatUserId = '5551'): Record<string, string> {
    return {
      ...(secret === null ? {} : bearer(secret)),
      'x-chat-guild-id': GUILD_ID,
      'x-acting-chat-user-id': chatUserId,
    };
  }

  describe.each(ROUTES)('$name', (route) => {
    it('answers 200 with an activity:read key', async () => {
      const res = await ctx.inject({ method: 'GET', url: route.url, headers: headers(fixture.keys.test.secret) });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('requires a credential (401)', async () => {
      for (const secret of [null, 'wsk_test_unknownunknownunknownunknown00', fixture.keys.revoked.secret]) {
        const res = await ctx.inject({ method: 'GET', url: route.url, headers: headers(secret) });
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('unauthenticated');
      }
    });

    it('requires the activity:read scope (403 insufficient_scope)', async () => {
      for (const secret of [fixture.keys.writeOnly.secret, fixture.keys.staffOnly.secret]) {
        const res = await ctx.inject({ method: 'GET', url: route.url, headers: headers(secret) });
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('insufficient_scope');
      }
    });

    it('requires the activity feature (403 feature_disabled)', async () => {
      const res = await ctx.inject({ method: 'GET', url: route.url, headers: headers(disabled.keys.test.secret) });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('feature_disabled');
    });

    it('checks the credential before the request (401, then 403, then 400)', async () => {
      const noChat = { 'x-chat-guild-id': '' };
      const anonymous = await ctx.inject({ method: 'GET', url: route.badUrl, headers: { ...headers(null), ...noChat } });
      expect(anonymous.statusCode).toBe(401);
      const unscoped = await ctx.inject({
        method: 'GET',
        url: route.badUrl,
        headers: { ...headers(fixture.keys.writeOnly.secret), ...noChat },
      });
      expect(unscoped.statusCode).toBe(403);
      const invalid = await ctx.inject({
        method: 'GET',
        url: route.badUrl,
        headers: { ...headers(fixture.keys.test.secret), ...noChat },
      });
      expect(invalid.statusCode).toBe(400);
    });
  });

  it('documents the three routes in the served OpenAPI document', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/openapi.json' });
    const paths = res.json().paths as Record<string, { get?: { operationId?: string; tags?: string[]; responses?: object } }>;
    expect(paths['/v1/activity/me/summary']?.get?.operationId).toBe('getActivitySummary');
    expect(paths['/v1/activity/staff/{gameUserId}']?.get?.operationId).toBe('getStaffActivity');
    expect(paths['/v1/activity/leaderboard']?.get?.operationId).toBe('getActivityLeaderboard');
    for (const path of ['/v1/activity/me/summary', '/v1/activity/staff/{gameUserId}', '/v1/activity/leaderboard']) {
      expect(paths[path]?.get?.tags).toEqual(['activity']);
    }
    expect(Object.keys(paths['/v1/activity/me/summary']?.get?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(paths['/v1/activity/leaderboard']?.get?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '429',
      '500',
      '503',
    ]);
  });
});
