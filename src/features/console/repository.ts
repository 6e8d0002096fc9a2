/**
 * The console's sign-in (docs/API.md, "Console sign-in"): the one-time codes of sign-in links, stored as their
 * SHA-256 only, and the memberships a link or the console reads.
 */
import type { ConsoleSignInCodeTable, Executor } from '../../db/types.ts';

export async function insertSignInCode(db: Executor, row: ConsoleSignInCodeTable): Promise<void> {
  await db.insertInto('console_sign_in_codes').values(row).execute();
}

/**
 * Uses the code once: one conditional update, so of two exchanges of one code at once exactly one finds it unused
 * (on PostgreSQL the second waits for the first's row lock, then sees `used_at` set). The user it signs in, or
 * undefined when the code is unknown, used or expired.
 */
export async function consumeSignInCode(
  db: Executor,
  codeHash: string,
  now: number,
): Promise<{ readonly user_id: string } | undefined> {
  return db
    .updateTable('console_sign_in_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
}

/** The member of the workspace with this chat user id (the first by user id, should provisioning ever allow two). */
export async function findMemberByChatUser(
  db: Executor,
  workspaceId: string,
  chatUserId: string,
): Promise<{ readonly user_id: string } | undefined> {
  return db
    .selectFrom('members')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('chat_user_id', '=', chatUserId)
    .orderBy('user_id')
    .limit(1)
    .executeTakeFirst();
}

export interface MemberWorkspaceRow {
  readonly id: string;
  readonly name: string;
  readonly timezone: string;
  readonly create_staff_profile_on_accept: number;
  /** JSON array of the member's permissions there. */
  readonly permissions: string;
}

/** The workspaces the user is a member of, with the user's permissions there, by name then id. */
export async function findMemberWorkspaces(db: Executor, userId: string): Promise<MemberWorkspaceRow[]> {
  return db
    .selectFrom('members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.timezone', 'w.create_staff_profile_on_accept', 'm.permissions'])
    .where('m.user_id', '=', userId)
    .orderBy('w.name')
    .orderBy('w.id')
    .execute();
}
