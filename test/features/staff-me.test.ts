import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { bearer, buildFixture, GUILD_ID, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

describe.each(STORE_KINDS)('GET /v1/staff/me (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture({
    secondWorkspace: true,
    extraKeys: { noStaffScope: { scopes: ['activity:read', 'activity:write'] } },
  });
  const featureOff = buildFixture({ features: { activity: false } });
  const noChat = buildFixture({ chat: null });

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    for (const f of [fixture, featureOff, noChat]) await seed(ctx, f);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const me = (secret: string, headers: Record<string, string | undefined>) =>
    ctx.inject({
      method: 'GET',
      url: '/v1/staff/me',
      headers: Object.fromEntries(
        Object.entries({ ...bearer(secret), ...headers }).filter((e): e is [string, string] => e[1] !== undefined),
      ),
    });

  const chat = (chatUserId: string | undefined, guildId: string | null = GUILD_ID) => ({
    'x-chat-guild-id': guildId ?? undefined,
    'x-acting-chat-user-id': chatUserId,
  });

  it('returns the invoking staff profile with department, rank and the effective weekly requirement', async () => {
    const res = await me(fixture.keys.test.secret, chat(fixture.staff.alice.chatUserId ?? ''));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toEqual({
      id: fixture.ids.staff.alice,
      displayName: 'Alice',
      gameUserId: fixture.staff.alice.gameUserId,
      gameUsername: 'alice',
      chatUserId: fixture.staff.alice.chatUserId,
      department: { id: fixture.ids.departments.moderation, name: 'Moderation' },
      rank: 'Moderator',
      status: 'active',
      weeklyRequiredMinutes: 180,
    });
    expect(body.meta.requestId).toBe(res.headers['x-request-id']);
  });

  it('the staff override beats the department requirement', async () => {
    const res = await me(fixture.keys.test.secret, chat(fixture.staff.bob.chatUserId ?? ''));
    expect(res.json().data.weeklyRequiredMinutes).toBe(60);
  });

  it('inactive staff still get their profile; no rank is null; the department without a requirement falls back to the workspace', async () => {
    const res = await me(fixture.keys.test.secret, chat(fixture.staff.carol.chatUserId ?? ''));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'inactive', rank: null, weeklyRequiredMinutes: 120 });
  });

  it('is not gated by the activity feature', async () => {
    const res = await me(featureOff.keys.test.secret, chat(featureOff.staff.alice.chatUserId ?? ''));
    expect(res.statusCode).toBe(200);
  });

  it('a missing X-Acting-Chat-User-Id is 400', async () => {
    const res = await me(fixture.keys.test.secret, chat(undefined));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });

  it('a missing X-Chat-Guild-Id is 400', async () => {
    const res = await me(fixture.keys.test.secret, chat(fixture.staff.alice.chatUserId ?? '', null));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });

  it('a guild other than the connected one is 403 guild_mismatch', async () => {
    const res = await me(fixture.keys.test.secret, chat(fixture.staff.alice.chatUserId ?? '', '123'));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('guild_mismatch');
  });

  it('the guild never selects a workspace: the other workspace guild is a mismatch', async () => {
    const res = await me(fixture.keys.test.secret, chat(fixture.second.staff.alice.chatUserId ?? '', fixture.second.guildId));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('guild_mismatch');
  });

  it('a workspace without a connected guild is 403 chat_not_connected', async () => {
    const res = await me(noChat.keys.test.secret, chat(noChat.staff.alice.chatUserId ?? ''));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('chat_not_connected');
  });

  it('a chat user with no staff profile in the key workspace is 404', async () => {
    const res = await me(fixture.keys.test.secret, chat('999999'));
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    const other = await me(fixture.keys.test.secret, chat(fixture.second.staff.alice.chatUserId ?? ''));
    expect(other.statusCode).toBe(404);
  });

  it('needs the staff:read scope: 403 insufficient_scope', async () => {
    const res = await me(fixture.keys.noStaffScope.secret, chat(fixture.staff.alice.chatUserId ?? ''));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('insufficient_scope');
  });

  it('authentication comes first: no key with missing headers is 401', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/staff/me' });
    expect(res.statusCode).toBe(401);
  });
});
