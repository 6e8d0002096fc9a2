import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { bearer, buildFixture, dashboardToken, READONLY_USER_ID, seed, type Fixture, type WorkspaceFixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, completedShift, insertActiveShift } from './helpers.ts';

const NOW = Date.parse('2026-03-11T12:00:00Z');
const BOTH_USER_ID = 'user-in-both';

describe.each(STORE_KINDS)('the leaderboard and the active list with a member\'s dashboard token (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture & { readonly second: WorkspaceFixture };
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    fixture = buildFixture({ secondWorkspace: true });
    const { alice, bob } = fixture.ids.staff;
    fixture.workspace.members?.push({ userId: BOTH_USER_ID, permissions: [] });
    fixture.second.workspace.members?.push({ userId: BOTH_USER_ID, permissions: [] });
    addHistory(fixture, {
      shifts: [
        completedShift(fixture, alice, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z', 'live'),
        completedShift(fixture, bob, '2026-03-10T10:00:00Z', '2026-03-10T13:00:00Z', 'test'),
      ],
    });
    await seed(ctx, fixture);
    await insertActiveShift(ctx, fixture, { staffId: alice, startedAt: '2026-03-11T11:00:00Z', lastSeenAt: '2026-03-11T11:59:00Z', environment: 'live' });
    await insertActiveShift(ctx, fixture, { staffId: bob, startedAt: '2026-03-11T11:10:00Z', lastSeenAt: '2026-03-11T11:59:00Z', environment: 'test' });
    token = await dashboardToken(READONLY_USER_ID);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const get = async (credential: string, url: string, workspaceId?: string) => {
    const headers: Record<string, string> = bearer(credential);
    if (workspaceId) headers['x-service-workspace-id'] = workspaceId;
    return ctx.inject({ method: 'GET', url, headers });
  };
  const dataOf = (res: { statusCode: number; body: string; json: () => unknown }) => {
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: unknown }).data;
  };

  it.each(['/v1/activity/leaderboard', '/v1/activity/shifts/active'])(
    '%s answers a member as it answers a key of the environment asked for (live by default)',
    async (url) => {
      const live = dataOf(await get(fixture.keys.live.secret, url));
      expect(dataOf(await get(token, url))).toEqual(live);
      expect(dataOf(await get(token, `${url}?environment=live`))).toEqual(live);
      const test = dataOf(await get(fixture.keys.test.secret, url));
      expect(test).not.toEqual(live);
      expect(dataOf(await get(token, `${url}?environment=test`))).toEqual(test);
      // A key reads its own environment whatever the query says.
      expect(dataOf(await get(fixture.keys.test.secret, `${url}?environment=live`))).toEqual(test);
    },
  );

  it('the leaderboard keeps its queries for a member: period, limit and paging', async () => {
    const first = dataOf(await get(token, '/v1/activity/leaderboard?period=month&limit=1')) as {
      entries: { staffId: string; position: number }[];
      nextCursor: { cursorTotalSeconds: number; cursorStaffId: string };
      period: { start: string };
    };
    expect(first.period.start).toBe('2026-03-01T00:00:00.000Z');
    expect(first.entries).toEqual([expect.objectContaining({ staffId: fixture.ids.staff.alice, position: 1 })]);
    const { cursorTotalSeconds, cursorStaffId } = first.nextCursor;
    const next = dataOf(await get(token, `/v1/activity/leaderboard?period=month&limit=1&cursorTotalSeconds=${cursorTotalSeconds}&cursorStaffId=${cursorStaffId}`)) as {
      entries: { position: number }[];
    };
    expect(next.entries[0]?.position).toBe(2);
  });

  it.each(['/v1/activity/leaderboard', '/v1/activity/shifts/active'])('%s: refusals of a member', async (url) => {
    const bad = await get(token, `${url}?environment=prod`);
    expect([bad.statusCode, (bad.json() as { error: { code: string } }).error.code]).toEqual([400, 'validation_failed']);
    const stranger = await get(await dashboardToken('user-of-no-workspace'), url);
    expect([stranger.statusCode, (stranger.json() as { error: { code: string } }).error.code]).toEqual([403, 'workspace_access_denied']);
    const notMine = await get(token, url, fixture.second.ids.workspaceId);
    expect(notMine.statusCode).toBe(403);
    const both = await dashboardToken(BOTH_USER_ID);
    expect((await get(both, url)).statusCode).toBe(400);
    expect(dataOf(await get(both, url, fixture.ids.workspaceId))).toEqual(dataOf(await get(token, url)));
    const expired = await get(await dashboardToken(READONLY_USER_ID, { expiresAt: NOW - 60_000 }), url);
    expect(expired.statusCode).toBe(401);
  });
});
