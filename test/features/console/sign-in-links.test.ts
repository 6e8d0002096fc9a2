import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/shared/ids.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { buildFixture, seed, SECOND_GUILD_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import {
  chatHeaders,
  codeOf,
  MANAGER_CHAT_USER,
  REVIEWER_CHAT_USER,
  requestLink,
  seedConsoleWorld,
  type ConsoleWorld,
} from './helpers.ts';

interface Link {
  url: string;
  expiresAt: string;
}

describe.each(STORE_KINDS)('POST /v1/console/sign-in-links (%s)', (kind) => {
  let ctx: TestContext;
  let world: ConsoleWorld;
  const noChat = buildFixture({ chat: null });

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    world = await seedConsoleWorld(ctx);
    await seed(ctx, noChat);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const secret = () => world.fixture.keys.test.secret;

  it('makes a one-time link for the member whose chatUserId is the acting chat user, valid 10 minutes', async () => {
    const res = await requestLink(ctx, secret(), chatHeaders(MANAGER_CHAT_USER));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: Link; meta: { requestId: string } };
    // No PUBLIC_BASE_URL and no listening server: the configured listening address.
    expect(body.data.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/console\/sign-in#code=[0-9A-Za-z]{43}$/);
    expect(body.data.expiresAt).toBe(new Date(DEFAULT_NOW + 10 * 60_000).toISOString());
    expect(body.meta.requestId).toBe(res.headers['x-request-id']);

    // Stored as its SHA-256 only, for the manager.
    const code = codeOf(body.data.url);
    const rows = await ctx.store.db.selectFrom('console_sign_in_codes').selectAll().where('code_hash', '=', sha256Hex(code)).execute();
    expect(rows).toEqual([
      {
        code_hash: sha256Hex(code),
        user_id: world.users.manager,
        created_at: expect.anything(),
        expires_at: expect.anything(),
        used_at: null,
      },
    ]);
    expect(Number(rows[0]?.expires_at)).toBe(DEFAULT_NOW + 10 * 60_000);
    const all = JSON.stringify(await ctx.store.db.selectFrom('console_sign_in_codes').selectAll().execute());
    expect(all).not.toContain(code);
  });

  it('every call makes a new link (no Idempotency-Key); `{}` is an accepted body', async () => {
    const first = await requestLink(ctx, secret(), chatHeaders(REVIEWER_CHAT_USER));
    const second = await requestLink(ctx, secret(), chatHeaders(REVIEWER_CHAT_USER), {});
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const codes = [first, second].map((res) => codeOf((res.json() as { data: Link }).data.url));
    expect(codes[0]).not.toBe(codes[1]);
  });

  it('another property in the body is 400 validation_failed', async () => {
    const res = await requestLink(ctx, secret(), chatHeaders(MANAGER_CHAT_USER), { userId: world.users.manager });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });

  it('needs the console:link scope (403 insufficient_scope)', async () => {
    const res = await requestLink(ctx, world.fixture.keys.noLink.secret, chatHeaders(MANAGER_CHAT_USER));
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'insufficient_scope', details: { requiredScope: 'console:link' } });
  });

  it('checks the chat headers as GET /v1/staff/me: both required (400), the connected guild (403)', async () => {
    const missing = await requestLink(ctx, secret(), { 'x-chat-guild-id': world.fixture.guildId });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('validation_failed');
    const noGuild = await requestLink(ctx, secret(), { 'x-acting-chat-user-id': MANAGER_CHAT_USER });
    expect(noGuild.statusCode).toBe(400);
    const mismatch = await requestLink(ctx, secret(), chatHeaders(MANAGER_CHAT_USER, SECOND_GUILD_ID));
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().error.code).toBe('guild_mismatch');
    const notConnected = await requestLink(ctx, noChat.keys.test.secret, chatHeaders(MANAGER_CHAT_USER));
    expect(notConnected.statusCode).toBe(403);
    expect(notConnected.json().error.code).toBe('chat_not_connected');
  });

  it('a chat user who is no member of the key\'s workspace is 404 not_found, and no link is stored', async () => {
    const before = await ctx.store.db.selectFrom('console_sign_in_codes').select('code_hash').execute();
    for (const chatUserId of [
      world.fixture.staff.alice.chatUserId ?? '', // a staff member, not a member
      '8001', // the manager's chat user id in the second workspace
      '9999',
    ]) {
      const res = await requestLink(ctx, secret(), chatHeaders(chatUserId));
      expect(res.statusCode, chatUserId).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    // The second workspace's key finds its own member.
    const second = await requestLink(ctx, world.fixture.second.keys.test.secret, chatHeaders('8001', SECOND_GUILD_ID));
    expect(second.statusCode).toBe(200);
    const after = await ctx.store.db.selectFrom('console_sign_in_codes').select('code_hash').execute();
    expect(after).toHaveLength(before.length + 1);
  });
});

describe('sign-in links name PUBLIC_BASE_URL when it is set', () => {
  it('the address is PUBLIC_BASE_URL + /console/sign-in#code=…', async () => {
    const ctx = await createTestContext('sqlite', { env: { PUBLIC_BASE_URL: 'https://gateway.example.com/base/' } });
    try {
      const world = await seedConsoleWorld(ctx);
      const res = await requestLink(ctx, world.fixture.keys.live.secret, chatHeaders(MANAGER_CHAT_USER));
      expect(res.statusCode).toBe(200);
      expect((res.json() as { data: Link }).data.url).toMatch(
        /^https:\/\/gateway\.example\.com\/base\/console\/sign-in#code=[0-9A-Za-z]{43}$/,
      );
    } finally {
      await ctx.close();
    }
  });
});
