import { afterAll, beforeAll } from 'vitest';
import { createTestContext, type TestContext, type TestContextOptions } from '../../helpers/app.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, seed, type Fixture, type WorkspaceFixture } from '../../helpers/fixtures.ts';
import type { StoreKind } from '../../helpers/stores.ts';

export type NoticeFixture = Fixture<'readOnly'> & { readonly second: WorkspaceFixture };

export interface NoticeWorld {
  ctx: TestContext;
  fixture: NoticeFixture;
  /** REVIEWER_USER_ID: every permission in the fixture's workspace. */
  token: string;
  /** A fresh active staff member of the fixture's workspace; their id and chat user id. */
  freshStaff(status?: 'active' | 'inactive'): Promise<{ id: string; chatUserId: string }>;
}

let chatCounter = 9000;

/** A fresh app and fixture per file (before all, closed after all). */
export function useNoticeWorld(kind: StoreKind, options: TestContextOptions = {}): NoticeWorld {
  const world = {} as NoticeWorld;
  beforeAll(async () => {
    world.ctx = await createTestContext(kind, options);
    world.fixture = buildFixture({ secondWorkspace: true, extraKeys: { readOnly: { scopes: ['staff:read'] } } });
    await seed(world.ctx, world.fixture);
    world.token = await dashboardToken(REVIEWER_USER_ID);
    world.freshStaff = async (status = 'active') => {
      chatCounter += 1;
      const staff = {
        id: crypto.randomUUID(),
        displayName: `S${chatCounter}`,
        gameUserId: String(70000 + chatCounter),
        gameUsername: `s${chatCounter}`,
        chatUserId: String(chatCounter),
        status,
      };
      const workspace = world.fixture.document.workspaces[0]!;
      await seed(world.ctx, { document: { workspaces: [{ ...workspace, staff: [staff] }] } });
      return { id: staff.id, chatUserId: staff.chatUserId };
    };
  });
  afterAll(async () => {
    await world.ctx?.close();
  });
  return world;
}
