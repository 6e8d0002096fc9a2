import type { ApiKeyActor, ChatContext } from '../../shared/actor.ts';
import type { Executor } from '../../db/types.ts';
import { notFound } from '../../shared/errors.ts';
import { assertGuildMatches } from '../workspaces/chat-binding.ts';
import { findWorkspace, type Workspace } from '../workspaces/workspace.ts';
import { findWorkspaceWithChatStaff, type StaffProfile } from './profiles.ts';
import { weeklyRequirement } from './requirement.ts';
import { STAFF_STATUSES, type StaffMe } from './schemas.ts';

type StaffStatus = (typeof STAFF_STATUSES)[number];

/** The acting chat user (declared in shared/actor.ts: the HTTP glue reads it from the headers), for this feature's callers. */
export type { ChatContext } from '../../shared/actor.ts';

export interface ActingStaff {
  readonly workspace: Workspace;
  readonly staff: StaffProfile;
}

/** The key's workspace (404 when missing) once its chat binding matches the request's guild (403). */
function checkedChatWorkspace(workspace: Workspace | undefined, chat: ChatContext): Workspace {
  if (!workspace) throw notFound('The workspace');
  assertGuildMatches(workspace.chat, chat.guildId);
  return workspace;
}

/**
 * The key's workspace after the guild check (403 `guild_mismatch` / `chat_not_connected`): what every operation
 * of the acting chat user checks first (`GET /v1/staff/me`, time off, console sign-in links).
 */
export async function readChatWorkspace(db: Executor, actor: ApiKeyActor, chat: ChatContext): Promise<Workspace> {
  return checkedChatWorkspace(await findWorkspace(db, actor.application.workspaceId), chat);
}

/**
 * The key's workspace after the guild check (403), and the invoking chat user's staff profile in it, if any: for an
 * operation that checks more (its body, say) between the guild and the staff member's 404. One read of both, which
 * also checks an unconfirmed key the actor carries.
 */
export async function readActingStaff(
  db: Executor,
  actor: ApiKeyActor,
  chat: ChatContext,
): Promise<{ readonly workspace: Workspace; readonly staff: StaffProfile | undefined }> {
  const { workspace, staff } = await findWorkspaceWithChatStaff(db, actor.application.workspaceId, chat.actingChatUserId, actor.unconfirmedKey);
  return { workspace: checkedChatWorkspace(workspace, chat), staff };
}

/** Resolves the invoking chat user to a staff profile of the key's workspace, after the guild check (readActingStaff). */
export async function resolveActingStaff(db: Executor, actor: ApiKeyActor, chat: ChatContext): Promise<ActingStaff> {
  const { workspace, staff } = await readActingStaff(db, actor, chat);
  if (!staff) throw notFound('A staff profile for this chat user');
  return { workspace, staff };
}

export interface StaffServiceDeps {
  readonly db: Executor;
}

/** Staff statuses are checked when staff is provisioned; anything else is a broken row, not an answer. */
function staffStatus(value: string): StaffStatus {
  if ((STAFF_STATUSES as readonly string[]).includes(value)) return value as StaffStatus;
  throw new Error(`unknown staff status ${JSON.stringify(value)}`);
}

export function createStaffService({ db }: StaffServiceDeps) {
  return {
    async me(actor: ApiKeyActor, chat: ChatContext): Promise<StaffMe> {
      const { workspace, staff } = await resolveActingStaff(db, actor, chat);
      return {
        id: staff.id,
        displayName: staff.displayName,
        gameUserId: staff.gameUserId,
        gameUsername: staff.gameUsername,
        chatUserId: staff.chatUserId,
        department: staff.department ? { id: staff.department.id, name: staff.department.name } : null,
        rank: staff.rank,
        status: staffStatus(staff.status),
        weeklyRequiredMinutes: weeklyRequirement(staff, workspace.settings),
      };
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
