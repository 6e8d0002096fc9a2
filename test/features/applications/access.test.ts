import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import {
  dashboardToken,
  READONLY_USER_ID,
  REVIEWER_USER_ID,
  SECOND_REVIEWER_USER_ID,
} from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import {
  addSubmission,
  call,
  commandsFor,
  DECIDE_ONLY_USER_ID,
  errorCode,
  MULTI_USER_ID,
  OPERATIONS,
  REVIEW_ONLY_USER_ID,
  seedReviewFixture,
  submissionRow,
  VALID_BODY,
  type ReviewFixture,
  type ReviewOperation,
} from './helpers.ts';

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe.each(STORE_KINDS)('application review: authentication, visibility and permissions (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: ReviewFixture;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = await seedReviewFixture(ctx);
    for (const user of [
      REVIEWER_USER_ID,
      READONLY_USER_ID,
      REVIEW_ONLY_USER_ID,
      DECIDE_ONLY_USER_ID,
      MULTI_USER_ID,
      SECOND_REVIEWER_USER_ID,
    ]) {
      tokens[user] = await dashboardToken(user);
    }
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const submission = (overrides = {}) => addSubmission(ctx, fixture.workspace, overrides);

  async function expectUnauthenticated(token: string | null): Promise<void> {
    const id = await submission();
    for (const operation of OPERATIONS) {
      const res = await call(ctx.inject, operation, id, { token, body: VALID_BODY[operation] });
      expect(res.statusCode, operation).toBe(401);
      expect(errorCode(res), operation).toBe('unauthenticated');
      expect(res.json().error.requestId).toBe(res.headers['x-request-id']);
    }
    expect((await submissionRow(ctx, id)).status).toBe('submitted');
    expect(await commandsFor(ctx, id)).toHaveLength(0);
  }

  describe('401 unauthenticated', () => {
    it('without an Authorization header', async () => {
      await expectUnauthenticated(null);
    });

    it('with a garbage bearer token', async () => {
      await expectUnauthenticated('not-a-jwt');
    });

    it('with a non-bearer Authorization scheme', async () => {
      const id = await submission();
      const res = await ctx.inject({
        method: 'POST',
        url: `/v1/applications/submissions/${id}/accept`,
        headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}`, 'idempotency-key': 'k1' },
      });
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('unauthenticated');
    });

    it('with a session cookie holding a valid token (the cookie scheme is a placeholder)', async () => {
      const id = await submission();
      const res = await ctx.inject({
        method: 'POST',
        url: `/v1/applications/submissions/${id}/accept`,
        headers: { 'idempotency-key': 'k-cookie' },
        cookies: { session: await dashboardToken(REVIEWER_USER_ID) },
      });
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('unauthenticated');
      expect((await submissionRow(ctx, id)).status).toBe('submitted');
    });

    it('with a workspace API key instead of a dashboard token', async () => {
      await expectUnauthenticated(fixture.keys.test.secret);
    });

    it('with an expired dashboard token', async () => {
      await expectUnauthenticated(await dashboardToken(REVIEWER_USER_ID, { expiresAt: DEFAULT_NOW - 1000 }));
    });

    it('with a token without exp', async () => {
      await expectUnauthenticated(await dashboardToken(REVIEWER_USER_ID, { expiresAt: null }));
    });

    it('with a token signed with another secret', async () => {
      await expectUnauthenticated(
        await dashboardToken(REVIEWER_USER_ID, { secret: 'another-secret-another-secret-0123456789' }),
      );
    });

    it('with an unsigned token (alg none)', async () => {
      const header = base64url({ alg: 'none', typ: 'JWT' });
      const payload = base64url({ sub: REVIEWER_USER_ID, exp: Math.floor(DEFAULT_NOW / 1000) + 3600 });
      await expectUnauthenticated(`${header}.${payload}.`);
    });

    it('comes before workspace selection, body validation and the idempotency key', async () => {
      const id = await submission();
      const res = await call(ctx.inject, 'review', id, {
        token: null,
        key: null,
        raw: '{not json',
        headers: { 'x-service-workspace-id': fixture.second.ids.workspaceId },
      });
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('unauthenticated');
    });
  });

  describe('403 workspace_access_denied (X-Service-Workspace-Id)', () => {
    it.each(OPERATIONS)('%s with a workspace the caller is not a member of', async (operation) => {
      const id = await submission();
      const res = await call(ctx.inject, operation, id, {
        token: tokens[REVIEWER_USER_ID]!,
        body: VALID_BODY[operation],
        headers: { 'x-service-workspace-id': fixture.second.ids.workspaceId },
      });
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('workspace_access_denied');
      expect((await submissionRow(ctx, id)).status).toBe('submitted');
    });

    it('comes before body validation and the idempotency key', async () => {
      const id = await submission();
      const res = await call(ctx.inject, 'review', id, {
        token: tokens[REVIEWER_USER_ID]!,
        key: null,
        body: {},
        headers: { 'x-service-workspace-id': fixture.second.ids.workspaceId },
      });
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('workspace_access_denied');
    });

    it('a selector that is not a uuid is 400 validation_failed', async () => {
      const id = await submission();
      const res = await call(ctx.inject, 'accept', id, {
        token: tokens[REVIEWER_USER_ID]!,
        headers: { 'x-service-workspace-id': 'acme' },
      });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
    });

    it('a selected workspace the caller belongs to works, in any letter case', async () => {
      const id = await submission();
      const res = await call(ctx.inject, 'accept', id, {
        token: tokens[REVIEWER_USER_ID]!,
        headers: { 'x-service-workspace-id': fixture.ids.workspaceId.toUpperCase() },
      });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('404 not_found', () => {
    it.each(OPERATIONS)('%s on an unknown submission id', async (operation) => {
      const res = await call(ctx.inject, operation, '6a1f3c52-8d0e-4f7b-9c2a-1b3d5e7f9a0b', {
        token: tokens[REVIEWER_USER_ID]!,
        body: VALID_BODY[operation],
      });
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    });

    it.each(OPERATIONS)('%s on a submissionId that is not a uuid (404, not 400)', async (operation) => {
      const res = await call(ctx.inject, operation, 'not-a-uuid', {
        token: tokens[REVIEWER_USER_ID]!,
        body: VALID_BODY[operation],
      });
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    });

    it.each(OPERATIONS)('%s on a submission of a workspace the caller is not a member of', async (operation) => {
      const id = await addSubmission(ctx, fixture.second.workspace);
      const res = await call(ctx.inject, operation, id, {
        token: tokens[REVIEWER_USER_ID]!,
        body: VALID_BODY[operation],
      });
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
      expect((await submissionRow(ctx, id)).status).toBe('submitted');
    });

    it('a submission outside the selected workspace is 404, though the caller is a member of its workspace', async () => {
      const id = await submission();
      const res = await call(ctx.inject, 'accept', id, {
        token: tokens[MULTI_USER_ID]!,
        headers: { 'x-service-workspace-id': fixture.second.ids.workspaceId },
      });
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    });

    it('without a selector, submissions of every workspace the caller belongs to are visible', async () => {
      const first = await submission();
      const second = await addSubmission(ctx, fixture.second.workspace);
      for (const id of [first, second]) {
        const res = await call(ctx.inject, 'mark-under-review', id, { token: tokens[MULTI_USER_ID]! });
        expect(res.statusCode).toBe(200);
      }
    });

    it('an uppercase submission id names the same submission', async () => {
      const id = await submission();
      const res = await call(ctx.inject, 'mark-under-review', id.toUpperCase(), { token: tokens[REVIEWER_USER_ID]! });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.submissionId).toBe(id);
    });

    it('lookup comes before permission: a member without permissions gets 404 for an unknown id', async () => {
      const res = await call(ctx.inject, 'accept', '6a1f3c52-8d0e-4f7b-9c2a-1b3d5e7f9a0b', {
        token: tokens[READONLY_USER_ID]!,
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('403 permission_denied', () => {
    const cases: Array<[string, ReviewOperation, number]> = [
      [READONLY_USER_ID, 'accept', 403],
      [READONLY_USER_ID, 'reject', 403],
      [READONLY_USER_ID, 'mark-under-review', 403],
      [READONLY_USER_ID, 'review', 403],
      [REVIEW_ONLY_USER_ID, 'accept', 403],
      [REVIEW_ONLY_USER_ID, 'reject', 403],
      [REVIEW_ONLY_USER_ID, 'mark-under-review', 200],
      [REVIEW_ONLY_USER_ID, 'review', 200],
      [DECIDE_ONLY_USER_ID, 'accept', 200],
      [DECIDE_ONLY_USER_ID, 'reject', 200],
      [DECIDE_ONLY_USER_ID, 'mark-under-review', 403],
      [DECIDE_ONLY_USER_ID, 'review', 403],
    ];
    it.each(cases)('%s: %s answers %i', async (user, operation, status) => {
      const id = await submission();
      const res = await call(ctx.inject, operation, id, { token: tokens[user]!, body: VALID_BODY[operation] });
      expect(res.statusCode).toBe(status);
      if (status === 403) {
        expect(errorCode(res)).toBe('permission_denied');
        expect(res.json().error.details.requiredPermission).toBe(
          operation === 'accept' || operation === 'reject' ? 'applications.decide' : 'applications.review',
        );
        expect((await submissionRow(ctx, id)).status).toBe('submitted');
        expect(await commandsFor(ctx, id)).toHaveLength(0);
      }
    });

    it('permission comes before state: a member without permissions gets 403 on an accepted submission', async () => {
      const id = await submission({ status: 'accepted' });
      const res = await call(ctx.inject, 'review', id, { token: tokens[READONLY_USER_ID]!, body: { score: 1 } });
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('permission_denied');
    });

    it('the second workspace\'s own reviewer may act on its submissions', async () => {
      const id = await addSubmission(ctx, fixture.second.workspace);
      const res = await call(ctx.inject, 'reject', id, { token: tokens[SECOND_REVIEWER_USER_ID]! });
      expect(res.statusCode).toBe(200);
    });
  });
});
