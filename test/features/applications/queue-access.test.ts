import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken, READONLY_USER_ID, REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { DECIDE_ONLY_USER_ID, errorCode, MULTI_USER_ID, REVIEW_ONLY_USER_ID, seedReviewFixture, type ReviewFixture } from './helpers.ts';
import { headers, insertForm, insertSubmission, queueBody, queueUrl } from './queue-helpers.ts';

/** Reviewer in the first workspace, a member without permissions in the second. */
const MIXED_USER_ID = 'user-mixed';
const NOBODY_USER_ID = 'user-member-of-nothing';
const MINUTE = 60_000;

describe.each(STORE_KINDS)('applications queue, submission and stats: access (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: ReviewFixture;
  let first: string;
  let second: string;
  let firstIds: string[];
  let secondIds: string[];
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = await seedReviewFixture(ctx, (f) => {
      f.workspace.members!.push({ userId: MIXED_USER_ID, permissions: ['applications.review'] });
      f.second.workspace.members!.push({ userId: MIXED_USER_ID, permissions: [] });
    });
    first = fixture.ids.workspaceId;
    second = fixture.second.ids.workspaceId;
    const formId = await insertForm(ctx, first, { name: 'Moderator' });
    // Interleaved in time, so a read of both workspaces must merge them.
    firstIds = [];
    secondIds = [];
    for (let i = 0; i < 4; i += 1) {
      firstIds.push(await insertSubmission(ctx, { workspaceId: first, formId, createdAt: DEFAULT_NOW - (20 - 2 * i) * MINUTE }));
      secondIds.push(await insertSubmission(ctx, { workspaceId: second, createdAt: DEFAULT_NOW - (19 - 2 * i) * MINUTE }));
    }
    for (const user of [REVIEWER_USER_ID, READONLY_USER_ID, REVIEW_ONLY_USER_ID, DECIDE_ONLY_USER_ID, MULTI_USER_ID, MIXED_USER_ID, NOBODY_USER_ID]) {
      tokens[user] = await dashboardToken(user);
    }
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const routes = {
    queue: () => queueUrl(),
    stats: () => '/v1/applications/stats',
    submission: () => `/v1/applications/submissions/${firstIds[0]}`,
  } as const;
  const get = (url: string, requestHeaders: Record<string, string>) => ctx.inject({ method: 'GET', url, headers: requestHeaders });
  const listed = async (user: string, workspaceId?: string, query: Record<string, string | number> = {}) => {
    const res = await get(queueUrl(query), headers(tokens[user]!, workspaceId));
    expect(res.statusCode).toBe(200);
    return queueBody(res).data.submissions.map((s) => s.id);
  };

  describe.each(Object.keys(routes) as Array<keyof typeof routes>)('%s', (route) => {
    it('without a credential, or with an API key, is 401 unauthenticated', async () => {
      for (const requestHeaders of [{}, { authorization: `Bearer ${fixture.keys.live.secret}` }] as Array<Record<string, string>>) {
        const res = await get(routes[route](), requestHeaders);
        expect(res.statusCode).toBe(401);
        expect(errorCode(res)).toBe('unauthenticated');
      }
    });

    it('a reviewer, a decider and a member with both may read', async () => {
      for (const user of [REVIEW_ONLY_USER_ID, DECIDE_ONLY_USER_ID, REVIEWER_USER_ID]) {
        expect((await get(routes[route](), headers(tokens[user]!, first))).statusCode, user).toBe(200);
        expect((await get(routes[route](), headers(tokens[user]!))).statusCode, user).toBe(200);
      }
    });

    it('a member with neither permission is 403 permission_denied', async () => {
      for (const selector of [first, undefined]) {
        const res = await get(routes[route](), headers(tokens[READONLY_USER_ID]!, selector));
        expect(res.statusCode).toBe(403);
        expect(errorCode(res)).toBe('permission_denied');
      }
    });

    it('selecting a workspace the caller is not a member of is 403 workspace_access_denied; a malformed selector 400', async () => {
      const denied = await get(routes[route](), headers(tokens[REVIEW_ONLY_USER_ID]!, second));
      expect(denied.statusCode).toBe(403);
      expect(errorCode(denied)).toBe('workspace_access_denied');
      const malformed = await get(routes[route](), headers(tokens[REVIEWER_USER_ID]!, 'workspace-1'));
      expect(malformed.statusCode).toBe(400);
      expect(errorCode(malformed)).toBe('validation_failed');
    });
  });

  it('a caller who is a member of no workspace gets 403 permission_denied from the queue and the stats, 404 for a submission', async () => {
    const token = tokens[NOBODY_USER_ID]!;
    for (const url of [routes.queue(), routes.stats()]) {
      const res = await get(url, headers(token));
      expect(res.statusCode, url).toBe(403);
      expect(errorCode(res), url).toBe('permission_denied');
    }
    const res = await get(routes.submission(), headers(token));
    expect(res.statusCode).toBe(404);
    expect(errorCode(res)).toBe('not_found');
  });

  it('the selector reads one workspace; without it every workspace the caller may read, merged oldest first', async () => {
    expect(await listed(MULTI_USER_ID, first)).toEqual(firstIds);
    expect(await listed(MULTI_USER_ID, second)).toEqual(secondIds);
    const merged = firstIds.flatMap((id, i) => [id, secondIds[i]!]);
    expect(await listed(MULTI_USER_ID)).toEqual(merged);
    // Paging across both workspaces: no duplicates, no gaps.
    const pages: string[] = [];
    let cursor: Record<string, string> = {};
    for (let i = 0; i < 5; i += 1) {
      const res = await get(queueUrl({ limit: 3, ...cursor }), headers(tokens[MULTI_USER_ID]!));
      const { data } = queueBody(res);
      pages.push(...data.submissions.map((s) => s.id));
      if (data.nextCursor === null) break;
      cursor = data.nextCursor;
    }
    expect(pages).toEqual(merged);
    // A single-workspace member sees only theirs.
    expect(await listed(REVIEWER_USER_ID)).toEqual(firstIds);
  });

  it('without a selector, workspaces where the caller holds neither permission are left out', async () => {
    expect(await listed(MIXED_USER_ID)).toEqual(firstIds);
    const res = await get(queueUrl(), headers(tokens[MIXED_USER_ID]!, second));
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('permission_denied');
    const stats = await get('/v1/applications/stats', headers(tokens[MIXED_USER_ID]!));
    expect((stats.json() as { data: { forms: Array<{ formName: string | null }> } }).data.forms.map((f) => f.formName)).toEqual([
      'Moderator',
    ]);
  });

  it('a submission of another workspace is 404 even for a member of it who selected this one', async () => {
    const res = await get(`/v1/applications/submissions/${secondIds[0]}`, headers(tokens[MULTI_USER_ID]!, first));
    expect(res.statusCode).toBe(404);
    expect(errorCode(res)).toBe('not_found');
    const mixed = await get(`/v1/applications/submissions/${secondIds[0]}`, headers(tokens[MIXED_USER_ID]!));
    expect(mixed.statusCode).toBe(403);
    expect(errorCode(mixed)).toBe('permission_denied');
  });
});
