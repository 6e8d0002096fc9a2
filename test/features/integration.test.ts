import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { bearer, buildFixture, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

describe.each(STORE_KINDS)('GET /v1/integration (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture({
    secondWorkspace: true,
    extraKeys: {
      revoked: { revoked: true },
      expired: { expiresAt: '2026-03-01T00:00:00Z' },
      future: { expiresAt: '2027-01-01T00:00:00Z' },
      readOnly: { scopes: ['activity:read'] },
    },
  });
  const unapproved = buildFixture({ approved: false });
  const featureOff = buildFixture({ features: { activity: false } });
  const noChat = buildFixture({ chat: null });

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    for (const f of [fixture, unapproved, featureOff, noChat]) await seed(ctx, f);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const get = (authorization: string | undefined, headers: Record<string, string> = {}) =>
    ctx.inject({
      method: 'GET',
      url: '/v1/integration',
      headers: { ...(authorization === undefined ? {} : { authorization }), ...headers },
    });

  it('returns the full integration context of a test key', async () => {
    const res = await get(bearer(fixture.keys.test.secret).authorization, { 'x-correlation-id': 'corr-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toEqual({
      application: { id: fixture.ids.applicationId, name: 'Acme game' },
      workspace: { id: fixture.ids.workspaceId, name: 'Acme workspace', slug: fixture.workspace.slug },
      environment: 'test',
      scopes: ['activity:write', 'activity:read', 'staff:read', 'staff:write', 'applications:read', 'applications:write', 'console:link'],
      features: { activity: true, applications: true },
      chat: { connected: true, guildId: '900001', status: 'connected', connectedAt: '2026-01-01T00:00:00.000Z' },
    });
    expect(body.meta).toEqual({ requestId: res.headers['x-request-id'], correlationId: 'corr-1' });
  });

  it('a live key reports the live environment', async () => {
    const res = await get(bearer(fixture.keys.live.secret).authorization);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.environment).toBe('live');
  });

  it('meta.correlationId is the request id when no X-Correlation-Id is sent', async () => {
    const res = await get(bearer(fixture.keys.test.secret).authorization);
    expect(res.json().meta.correlationId).toBe(res.headers['x-request-id']);
  });

  it('an X-Correlation-Id that is empty, too long or not visible ASCII is 400', async () => {
    for (const value of ['x'.repeat(129), 'has space', 'tab\tbed']) {
      const res = await get(bearer(fixture.keys.test.secret).authorization, { 'x-correlation-id': value });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });

  it('workspace scope comes from the key: the other workspace key sees its own workspace', async () => {
    const res = await get(bearer(fixture.second.keys.test.secret).authorization, {
      'x-service-workspace-id': fixture.ids.workspaceId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.workspace.id).toBe(fixture.second.ids.workspaceId);
  });

  it('a key with any scope may call it', async () => {
    const res = await get(bearer(fixture.keys.readOnly.secret).authorization);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.scopes).toEqual(['activity:read']);
  });

  it('a matching X-Chat-Guild-Id is accepted', async () => {
    const res = await get(bearer(fixture.keys.test.secret).authorization, { 'x-chat-guild-id': '900001' });
    expect(res.statusCode).toBe(200);
  });

  it('a different X-Chat-Guild-Id is 403 guild_mismatch', async () => {
    const res = await get(bearer(fixture.keys.test.secret).authorization, { 'x-chat-guild-id': '900002' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('guild_mismatch');
  });

  it('a guild header on a workspace with no connected guild is 403 chat_not_connected', async () => {
    const ok = await get(bearer(noChat.keys.test.secret).authorization);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.chat).toEqual({ connected: false, guildId: null, status: null, connectedAt: null });
    const res = await get(bearer(noChat.keys.test.secret).authorization, { 'x-chat-guild-id': '900001' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('chat_not_connected');
  });

  it('the activity feature must be enabled: 403 feature_disabled', async () => {
    const res = await get(bearer(featureOff.keys.test.secret).authorization);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('feature_disabled');
  });

  it('a key of an application that is not approved is 403 application_not_approved', async () => {
    const res = await get(bearer(unapproved.keys.test.secret).authorization);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('application_not_approved');
  });

  it('a key that expires later is accepted', async () => {
    expect((await get(bearer(fixture.keys.future.secret).authorization)).statusCode).toBe(200);
  });

  describe('401 unauthenticated', () => {
    const secret = () => fixture.keys.test.secret;
    const cases: Array<[string, () => string | undefined]> = [
      ['no Authorization header', () => undefined],
      ['an empty header', () => ''],
      ['a scheme other than Bearer', () => `Basic ${secret()}`],
      ['Bearer without a token', () => 'Bearer '],
      ['an unknown key of valid format', () => `Bearer wsk_test_${'A'.repeat(40)}`],
      ['a malformed key', () => 'Bearer wsk_test_short'],
      ['a revoked key', () => `Bearer ${fixture.keys.revoked.secret}`],
      ['an expired key', () => `Bearer ${fixture.keys.expired.secret}`],
      ['a key whose prefix names the other environment', () => `Bearer ${secret().replace('wsk_test_', 'wsk_live_')}`],
      ['a key with a changed case', () => `Bearer ${secret().slice(0, -1)}${secret().slice(-1) === 'a' ? 'A' : 'a'}`],
      ['a key with stray whitespace inside', () => `Bearer ${secret().slice(0, 12)} ${secret().slice(12)}`],
      ['an upper-case prefix', () => `Bearer ${secret().replace('wsk_test_', 'WSK_TEST_')}`],
      ['two credentials', () => `Bearer ${secret()} Bearer ${secret()}`],
      ['a dashboard token', () => 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLXJldmlld2VyIn0.c2lnbmF0dXJl'],
    ];
    it.each(cases)('%s', async (_name, header) => {
      const res = await get(header());
      expect(res.statusCode).toBe(401);
      const body = res.json();
      expect(body.error.code).toBe('unauthenticated');
      expect(body.error.requestId).toBe(res.headers['x-request-id']);
      expect(JSON.stringify(body)).not.toContain(fixture.keys.test.secret);
    });
  });
});
