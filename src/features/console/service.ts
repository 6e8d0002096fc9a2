/**
 * Signing in to the console (docs/API.md, "Console sign-in"): a sign-in link carries a one-time code that a
 * browser exchanges for a dashboard token signed by the gateway's own key (src/auth/keys/dashboard-token.ts), the
 * token every dashboard operation accepts. A chat bot asks for a link for its acting chat user (the member of the
 * key's workspace with that chat user id); an operator makes one with `console-link`.
 */
import { PERMISSIONS, parseStringArray, type ApiKeyActor, type Permission, type UserActor } from '../../shared/actor.ts';
import { toIso, type Clock } from '../../shared/clock.ts';
import type { Config } from '../../shared/config.ts';
import { AppError, notFound } from '../../shared/errors.ts';
import { randomBase62, sha256Hex } from '../../shared/ids.ts';
import type { Store } from '../../db/store.ts';
import {
  DEFAULT_TOKEN_TTL_SECONDS,
  issueDashboardToken,
  obtainSigningKey,
  type IssuedToken,
} from '../../auth/keys/dashboard-token.ts';
import { ranksOfWorkspaces } from '../ranks/catalog.ts';
import type { WorkspaceRank } from '../ranks/schemas.ts';
import { readChatWorkspace, type ChatContext } from '../staff/service.ts';
import { consumeSignInCode, findMemberByChatUser, findMemberWorkspaces, insertSignInCode } from './repository.ts';

/** Base62 characters of a code: about 256 random bits. */
export const SIGN_IN_CODE_LENGTH = 43;
/** How long a link can be used. */
export const SIGN_IN_LINK_TTL_MS = 10 * 60 * 1000;
/** The console page that exchanges a link's code; the code goes in the fragment, which browsers never send. */
export const SIGN_IN_PATH = '/console/sign-in';

export interface SignInLink {
  readonly url: string;
  readonly expiresAt: string;
}

export interface ConsoleMe {
  readonly userId: string;
  readonly workspaces: Array<{
    readonly id: string;
    readonly name: string;
    readonly timezone: string;
    readonly createStaffProfileOnAccept: boolean;
    readonly permissions: Permission[];
    readonly ranks: WorkspaceRank[];
  }>;
}

export interface ConsoleServiceDeps {
  readonly store: Pick<Store, 'db' | 'write'>;
  readonly clock: Clock;
  readonly config: Pick<Config, 'dashboardSigningKey'>;
}

export function createConsoleService({ store, clock, config }: ConsoleServiceDeps) {
  const db = store.db;

  /** A new link signing `userId` in: its code stored only as its SHA-256, usable once, for SIGN_IN_LINK_TTL_MS. */
  async function newLink(userId: string, baseUrl: string): Promise<SignInLink> {
    const code = randomBase62(SIGN_IN_CODE_LENGTH);
    const now = clock.now();
    const expiresAt = now + SIGN_IN_LINK_TTL_MS;
    await store.write((trx) =>
      insertSignInCode(trx, { code_hash: sha256Hex(code), user_id: userId, created_at: now, expires_at: expiresAt, used_at: null }),
    );
    return { url: `${baseUrl}${SIGN_IN_PATH}#code=${code}`, expiresAt: toIso(expiresAt) };
  }

  return {
    /**
     * A link for the acting chat user: the guild checked as on `GET /v1/staff/me` (403), then the member of the
     * key's workspace whose chat user id it is (404 when none).
     */
    async linkForChatUser(actor: ApiKeyActor, chat: ChatContext, baseUrl: string): Promise<SignInLink> {
      const [, member] = await Promise.all([
        readChatWorkspace(db, actor, chat),
        findMemberByChatUser(db, actor.application.workspaceId, chat.actingChatUserId),
      ]);
      if (!member) throw notFound('A workspace member with this chat user id');
      return newLink(member.user_id, baseUrl);
    },

    /** A link for an operator's `console-link`: the user must be a member of some workspace (404 otherwise). */
    async linkForUser(userId: string, baseUrl: string): Promise<SignInLink> {
      const workspaces = await findMemberWorkspaces(db, userId);
      if (workspaces.length === 0) {
        throw new AppError(
          'not_found',
          `No workspace has a member with user id "${userId}"; add it to a workspace's members (provisioning) first.`,
        );
      }
      return newLink(userId, baseUrl);
    },

    /**
     * The dashboard token a code is exchanged for (8 hours), or undefined when the code is unknown, used or
     * expired. The code is spent and the signing key obtained (generated on first use) in one transaction: a
     * refused code writes nothing, and a code is never spent without the key its token is signed with.
     */
    async exchange(code: string): Promise<IssuedToken | undefined> {
      const now = clock.now();
      const spent = await store.write(async (trx) => {
        const consumed = await consumeSignInCode(trx, sha256Hex(code), now);
        if (!consumed) return undefined;
        return { userId: consumed.user_id, key: await obtainSigningKey(trx, config.dashboardSigningKey, now) };
      });
      if (!spent) return undefined;
      return issueDashboardToken(spent.key, { userId: spent.userId, ttlSeconds: DEFAULT_TOKEN_TTL_SECONDS, now });
    },

    /**
     * The caller and their workspaces, each with the caller's permissions there (known ones, in their usual order)
     * and its ranks by order (docs/ROBLOX.md), so the console offers only the ranks that can be given.
     */
    async me(actor: UserActor): Promise<ConsoleMe> {
      const rows = await findMemberWorkspaces(db, actor.userId);
      const ranks = await ranksOfWorkspaces(db, rows.map((row) => row.id));
      return {
        userId: actor.userId,
        workspaces: rows.map((row) => {
          const held = parseStringArray(row.permissions);
          return {
            id: row.id,
            name: row.name,
            timezone: row.timezone,
            createStaffProfileOnAccept: row.create_staff_profile_on_accept === 1,
            permissions: PERMISSIONS.filter((p) => held.includes(p)),
            ranks: ranks.get(row.id) ?? [],
          };
        }),
      };
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
