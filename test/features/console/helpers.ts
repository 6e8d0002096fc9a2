/**
 * The console sign-in's world: the fixture's workspace with members carrying chat user ids (a manager with every
 * permission, a reviewer, a member without a chat user id), a second workspace where the manager reviews, and a
 * third named like the first (so `GET /v1/console/me` orders by id after name). User ids are fresh per world.
 */
import { PERMISSIONS } from '../../../src/shared/actor.ts';
import { randomBase62 } from '../../../src/shared/ids.ts';
import type { TestContext } from '../../helpers/app.ts';
import { bearer, buildFixture, GUILD_ID, seed } from '../../helpers/fixtures.ts';

export const MANAGER_CHAT_USER = '7001';
export const REVIEWER_CHAT_USER = '7002';

export function buildConsoleWorld() {
  const suffix = randomBase62(8);
  const users = { manager: `manager-${suffix}`, reviewer: `reviewer-${suffix}`, noChat: `no-chat-${suffix}` };
  const fixture = buildFixture({ secondWorkspace: true, extraKeys: { noLink: { scopes: ['staff:read'] } } });
  fixture.workspace.members = [
    { userId: users.manager, permissions: [...PERMISSIONS], chatUserId: MANAGER_CHAT_USER },
    { userId: users.reviewer, permissions: ['applications.review'], chatUserId: REVIEWER_CHAT_USER },
    { userId: users.noChat, permissions: ['applications.review'] },
  ];
  fixture.second.workspace.members = [{ userId: users.manager, permissions: ['applications.review'], chatUserId: '8001' }];
  const namesake = buildFixture({ timezone: 'Europe/Berlin', createStaffProfileOnAccept: true });
  namesake.workspace.name = fixture.workspace.name;
  namesake.workspace.members = [{ userId: users.manager, permissions: ['notices.decide'] }];
  return { fixture, namesake, users };
}

export type ConsoleWorld = ReturnType<typeof buildConsoleWorld>;

export async function seedConsoleWorld(ctx: TestContext): Promise<ConsoleWorld> {
  const world = buildConsoleWorld();
  await seed(ctx, world.fixture);
  await seed(ctx, world.namesake);
  return world;
}

export function chatHeaders(chatUserId: string, guildId = GUILD_ID): Record<string, string> {
  return { 'x-chat-guild-id': guildId, 'x-acting-chat-user-id': chatUserId };
}

/** POST /v1/console/sign-in-links with the key and chat headers (and body, when given). */
export function requestLink(ctx: TestContext, secret: string, headers: Record<string, string>, body?: unknown) {
  return ctx.inject({
    method: 'POST',
    url: '/v1/console/sign-in-links',
    headers: { ...bearer(secret), ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** The code of a sign-in link's address. */
export function codeOf(url: string): string {
  const code = /#code=([0-9A-Za-z]+)$/.exec(url)?.[1];
  if (code === undefined) throw new Error(`no code in ${url}`);
  return code;
}

export function exchange(ctx: TestContext, code: string) {
  return ctx.inject({
    method: 'POST',
    url: '/v1/console/sessions',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ code }),
  });
}

/** A fresh link's code for the chat user, through the API. */
export async function linkCode(ctx: TestContext, world: ConsoleWorld, chatUserId = MANAGER_CHAT_USER): Promise<string> {
  const res = await requestLink(ctx, world.fixture.keys.test.secret, chatHeaders(chatUserId));
  if (res.statusCode !== 200) throw new Error(`sign-in link: ${res.statusCode} ${res.body}`);
  return codeOf((res.json() as { data: { url: string } }).data.url);
}
