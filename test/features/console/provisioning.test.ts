/** Members' chatUserId in the provisioning document: stored, overwritten, cleared, and unique in a workspace. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyProvisioning } from '../../../src/provisioning/apply.ts';
import { PERMISSIONS } from '../../../src/shared/actor.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { buildFixture, seed } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { rejection } from '../../provisioning/documents.ts';
import { chatHeaders, requestLink } from './helpers.ts';

describe.each(STORE_KINDS)('members\' chatUserId in provisioning (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const apply = (document: Parameters<typeof applyProvisioning>[1]) => applyProvisioning(ctx.store.db, document, ctx.clock);
  const chatUsers = async (workspaceId: string) =>
    Object.fromEntries(
      (await ctx.store.db.selectFrom('members').select(['user_id', 'chat_user_id']).where('workspace_id', '=', workspaceId).execute()).map(
        (row) => [row.user_id, row.chat_user_id],
      ),
    );

  it('is stored, found by a sign-in link, changed and cleared by later documents; re-applying changes nothing', async () => {
    const fixture = buildFixture();
    fixture.workspace.members = [
      { userId: 'ann', permissions: [...PERMISSIONS], chatUserId: '123' },
      { userId: 'ben', permissions: [] },
    ];
    await seed(ctx, fixture);
    const workspaceId = fixture.ids.workspaceId;
    expect(await chatUsers(workspaceId)).toEqual({ ann: '123', ben: null });
    await seed(ctx, fixture);
    expect(await chatUsers(workspaceId)).toEqual({ ann: '123', ben: null });
    const link = async (chatUserId: string) => (await requestLink(ctx, fixture.keys.test.secret, chatHeaders(chatUserId))).statusCode;
    expect(await link('123')).toBe(200);

    // The two swap chat user ids in one document: allowed, as each gives its own up.
    fixture.workspace.members = [
      { userId: 'ann', permissions: [...PERMISSIONS], chatUserId: '456' },
      { userId: 'ben', permissions: [], chatUserId: '123' },
    ];
    await seed(ctx, fixture);
    expect(await chatUsers(workspaceId)).toEqual({ ann: '456', ben: '123' });

    // Left out: cleared, as every other setting of a listed member.
    fixture.workspace.members = [{ userId: 'ann', permissions: [] }, { userId: 'ben', permissions: [], chatUserId: '123' }];
    await seed(ctx, fixture);
    expect(await chatUsers(workspaceId)).toEqual({ ann: null, ben: '123' });
    expect(await link('456')).toBe(404);
  });

  it('is 1 to 32 digits', async () => {
    for (const chatUserId of ['', 'abc', '12 3', '1'.repeat(33)]) {
      const fixture = buildFixture();
      fixture.workspace.members = [{ userId: 'ann', permissions: [], chatUserId }];
      const error = await rejection(apply(fixture.document));
      expect(error.issues.map((issue) => issue.path), chatUserId).toEqual(['$.workspaces[0].members[0].chatUserId']);
    }
  });

  it('two members of a workspace may not share one, in the document or with a member already stored', async () => {
    const fixture = buildFixture({ secondWorkspace: true });
    fixture.workspace.members = [
      { userId: 'ann', permissions: [], chatUserId: '777' },
      { userId: 'ben', permissions: [], chatUserId: '777' },
    ];
    const twice = await rejection(apply(fixture.document));
    expect(twice.issues).toEqual([
      { path: '$.workspaces[0].members[1].chatUserId', message: 'chatUserId "777" is already used by the member at $.workspaces[0].members[0].chatUserId' },
    ]);

    fixture.workspace.members = [{ userId: 'ann', permissions: [], chatUserId: '777' }];
    // Another workspace's member may have the same one.
    fixture.second.workspace.members = [{ userId: 'ann', permissions: [], chatUserId: '777' }];
    await seed(ctx, fixture);
    const later = buildFixture();
    Object.assign(later.workspace, { ...fixture.workspace, members: [{ userId: 'cat', permissions: [], chatUserId: '777' }] });
    const taken = await rejection(apply({ workspaces: [later.workspace] }));
    expect(taken.issues).toEqual([
      { path: '$.workspaces[0].members[0].chatUserId', message: 'chatUserId "777" is already used by member "ann" of this workspace' },
    ]);
    expect(await chatUsers(fixture.ids.workspaceId)).toEqual({ ann: '777' });
  });
});
