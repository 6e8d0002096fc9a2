import { afterAll, beforeAll } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { buildFixture, READONLY_USER_ID, REVIEWER_USER_ID, seed, type Fixture, type WorkspaceFixture } from '../../helpers/fixtures.ts';
import type { StoreKind } from '../../helpers/stores.ts';
import { discordApplication, signedInteraction, type DiscordApplication, type DiscordMessage } from './helpers.ts';

/** Chat user ids of the members: the reviewer (every permission) and the read-only member (none). */
export const REVIEWER_CHAT = '7001';
export const READONLY_CHAT = '7002';
/** The second workspace's time zone: a command's dates are its local days. */
export const SECOND_TIME_ZONE = 'America/New_York';

export interface DiscordWorld {
  ctx: TestContext;
  fixture: Fixture & { readonly second: WorkspaceFixture };
  discord: DiscordApplication;
  /** Sends a signed interaction to the in-process app; the status and the Discord answer. */
  send(interaction: Record<string, unknown>): Promise<{ status: number; body: DiscordMessage }>;
}

/**
 * One app per file: the fixture's two workspaces both connected to one Discord application (each its own guild),
 * the members of the first with chat user ids; the first in UTC, the second in SECOND_TIME_ZONE.
 */
export function useDiscordWorld(kind: StoreKind): DiscordWorld {
  const world = {} as DiscordWorld;
  beforeAll(async () => {
    world.ctx = await createTestContext(kind);
    world.discord = discordApplication();
    world.fixture = buildFixture({ secondWorkspace: true });
    const [first, second] = world.fixture.document.workspaces;
    const discord = { applicationId: world.discord.applicationId, publicKey: world.discord.publicKey };
    Object.assign(first!, {
      discord,
      members: [
        { userId: REVIEWER_USER_ID, permissions: ['notices.decide', 'applications.review'], chatUserId: REVIEWER_CHAT },
        { userId: READONLY_USER_ID, permissions: [], chatUserId: READONLY_CHAT },
      ],
    });
    Object.assign(second!, { discord, timezone: SECOND_TIME_ZONE });
    await seed(world.ctx, world.fixture);
    world.send = async (interaction) => {
      const signed = signedInteraction(world.discord, interaction, world.ctx.clock.now());
      const res = await world.ctx.inject({ method: 'POST', url: signed.url, headers: signed.headers, payload: signed.payload });
      return { status: res.statusCode, body: res.json<DiscordMessage>() };
    };
  });
  afterAll(async () => {
    await world.ctx?.close();
  });
  return world;
}
