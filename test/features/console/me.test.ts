import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/shared/actor.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { bearer, dashboardToken, seed, type WorkspaceFixture } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { buildConsoleWorld, exchange, linkCode, type ConsoleWorld } from './helpers.ts';

/** A workspace as `me` lists it, from the document it was provisioned with (the fixture's default settings). */
function about(f: WorkspaceFixture) {
  return { id: f.ids.workspaceId, name: f.workspace.name, timezone: 'UTC', createStaffProfileOnAccept: false, ranks: [] };
}

const ROBLOX_API_KEY = 'ocak_SECRET_console_me_0123456789';
const ROBLOX_WEBHOOK_SECRET = 'whsec_SECRET_console_me_9876543210';

describe.each(STORE_KINDS)('GET /v1/console/me (%s)', (kind) => {
  let ctx: TestContext;
  let world: ConsoleWorld;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    world = buildConsoleWorld();
    // The namesake has a Roblox group and ranks, listed out of order (the fixture's staff hold two of them).
    world.namesake.workspace.roblox = { groupId: '4200001', apiKey: ROBLOX_API_KEY, webhookSecret: ROBLOX_WEBHOOK_SECRET };
    world.namesake.workspace.ranks = [
      { name: 'Owner', roleId: '255', order: 255, assignable: false },
      { name: 'Moderator', roleId: '102', order: 20 },
      { name: 'Trial Moderator', roleId: '101', order: 10, assignable: true },
    ];
    await seed(ctx, world.fixture);
    await seed(ctx, world.namesake);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const me = (token: string, headers: Record<string, string> = {}) =>
    ctx.inject({ method: 'GET', url: '/v1/console/me', headers: { ...bearer(token), ...headers } });

  it('lists the signed-in member\'s workspaces with their permissions there, by name then id', async () => {
    const token = ((await exchange(ctx, await linkCode(ctx, world))).json() as { data: { token: string } }).data.token;
    const res = await me(token);
    expect(res.statusCode, res.body).toBe(200);
    const sameName = [
      { ...about(world.fixture), permissions: [...PERMISSIONS] },
      {
        ...about(world.namesake),
        timezone: 'Europe/Berlin',
        createStaffProfileOnAccept: true,
        permissions: ['notices.decide'],
        ranks: [
          { name: 'Trial Moderator', order: 10, assignable: true },
          { name: 'Moderator', order: 20, assignable: true },
          { name: 'Owner', order: 255, assignable: false },
        ],
      },
    ].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(res.json().data).toEqual({
      userId: world.users.manager,
      workspaces: [
        ...sameName,
        { ...about(world.fixture.second), permissions: ['applications.review'] },
      ],
    });
    expect(world.fixture.second.workspace.name > world.fixture.workspace.name).toBe(true);
    expect(res.json().meta.requestId).toBe(res.headers['x-request-id']);
    // The ranks come without their role ids, and nothing of the group's settings is in the answer.
    for (const secret of [ROBLOX_API_KEY, ROBLOX_WEBHOOK_SECRET, '4200001', '"255"', 'roleId']) expect(res.body).not.toContain(secret);
  });

  it('accepts an identity provider\'s token too; a user with no membership gets an empty list', async () => {
    const reviewer = await me(await dashboardToken(world.users.reviewer));
    expect(reviewer.statusCode).toBe(200);
    expect(reviewer.json().data).toEqual({
      userId: world.users.reviewer,
      workspaces: [{ ...about(world.fixture), permissions: ['applications.review'] }],
    });
    const stranger = await me(await dashboardToken('user-provisioned-nowhere'));
    expect(stranger.json().data).toEqual({ userId: 'user-provisioned-nowhere', workspaces: [] });
  });

  it('needs a dashboard token: none, or an API key, is 401', async () => {
    const none = await ctx.inject({ method: 'GET', url: '/v1/console/me' });
    expect(none.statusCode).toBe(401);
    const key = await me(world.fixture.keys.test.secret);
    expect(key.statusCode).toBe(401);
    expect(key.json().error.code).toBe('unauthenticated');
  });

  it('X-Service-Workspace-Id naming a workspace the caller is not a member of is 403', async () => {
    const res = await me(await dashboardToken(world.users.reviewer), { 'x-service-workspace-id': world.fixture.second.ids.workspaceId });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('workspace_access_denied');
  });
});
