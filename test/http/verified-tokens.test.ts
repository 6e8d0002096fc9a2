import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueDashboardToken, obtainSigningKey } from '../../src/auth/keys/dashboard-token.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { errorCode, seedReviewFixture, type ReviewFixture } from '../features/applications/helpers.ts';
import { headers, queueUrl } from '../features/applications/queue-helpers.ts';

const MINUTE = 60_000;

/**
 * A dashboard token verified once is answered from memory for a minute: what it answers must be what verifying it
 * again would, for a token that expires meanwhile and for a member whose permissions change meanwhile.
 */
describe.each(STORE_KINDS)('dashboard tokens verified recently (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: ReviewFixture;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = await seedReviewFixture(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(() => ctx.clock.set(DEFAULT_NOW));

  const queue = (token: string) =>
    ctx.inject({ method: 'GET', url: queueUrl(), headers: headers(token, fixture.ids.workspaceId) });
  const gatewayToken = async (ttlSeconds: number) =>
    (
      await issueDashboardToken(await obtainSigningKey(ctx.store.db, undefined, DEFAULT_NOW), {
        userId: REVIEWER_USER_ID,
        ttlSeconds,
        now: DEFAULT_NOW,
      })
    ).token;

  it('a token accepted a moment before its expiry is refused from its expiry on, within the minute', async () => {
    const tokens = {
      identityProvider: await dashboardToken(REVIEWER_USER_ID, { expiresAt: DEFAULT_NOW + 30_000 }),
      gateway: await gatewayToken(30),
    };
    for (const [source, token] of Object.entries(tokens)) {
      ctx.clock.set(DEFAULT_NOW);
      expect((await queue(token)).statusCode, source).toBe(200);
      ctx.clock.set(DEFAULT_NOW + 29_999);
      expect((await queue(token)).statusCode, source).toBe(200);
      ctx.clock.set(DEFAULT_NOW + 30_000);
      const expired = await queue(token);
      expect(expired.statusCode, source).toBe(401);
      expect(errorCode(expired)).toBe('unauthenticated');
    }
  });

  it('a token refused as not yet valid is accepted once it is, and one refused for its signature stays refused', async () => {
    const early = await dashboardToken(REVIEWER_USER_ID, { notBefore: DEFAULT_NOW + MINUTE });
    expect((await queue(early)).statusCode).toBe(401);
    ctx.clock.set(DEFAULT_NOW + MINUTE);
    expect((await queue(early)).statusCode).toBe(200);

    const forged = await dashboardToken(REVIEWER_USER_ID, { secret: 'another-secret-of-at-least-thirty-two-characters' });
    expect((await queue(forged)).statusCode).toBe(401);
    expect((await queue(forged)).statusCode).toBe(401);
  });

  it('a member whose permission is taken away is refused at once with a token verified a moment before', async () => {
    const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: DEFAULT_NOW + 3_600_000 });
    expect((await queue(token)).statusCode).toBe(200);
    const where = { user_id: REVIEWER_USER_ID, workspace_id: fixture.ids.workspaceId };
    const before = await ctx.store.db
      .selectFrom('members')
      .select('permissions')
      .where('user_id', '=', where.user_id)
      .where('workspace_id', '=', where.workspace_id)
      .executeTakeFirstOrThrow();
    await ctx.store.db
      .updateTable('members')
      .set({ permissions: '[]' })
      .where('user_id', '=', where.user_id)
      .where('workspace_id', '=', where.workspace_id)
      .execute();
    try {
      const refused = await queue(token);
      expect(refused.statusCode).toBe(403);
      expect(errorCode(refused)).toBe('permission_denied');
    } finally {
      await ctx.store.db
        .updateTable('members')
        .set({ permissions: before.permissions })
        .where('user_id', '=', where.user_id)
        .where('workspace_id', '=', where.workspace_id)
        .execute();
    }
    expect((await queue(token)).statusCode).toBe(200);
  });
});
