/**
 * The reads of an interaction (docs/DISCORD.md): the workspaces a Discord application answers for, and the member
 * a Discord user is in one of them.
 */
import { sql } from 'kysely';
import type { Environment } from '../../shared/actor.ts';
import { rowsOf } from '../../db/dialect.ts';
import type { Executor } from '../../db/types.ts';

export interface ApplicationWorkspace {
  readonly workspace_id: string;
  readonly public_key: string;
  readonly environment: Environment;
  readonly guild_id: string | null;
  readonly chat_status: string | null;
  /** The workspace's time zone as stored (reportingTimeZone reads it). */
  readonly timezone: string;
}

/** The workspaces connected to this Discord application, each with its chat guild and time zone. */
export async function findApplicationWorkspaces(db: Executor, applicationId: string): Promise<ApplicationWorkspace[]> {
  // Every interaction reads it first: a `sql` template costs less to build than a Kysely builder.
  return rowsOf(
    db,
    sql<ApplicationWorkspace>`select d.workspace_id, d.public_key, d.environment, w.chat_guild_id as guild_id, w.chat_status, w.timezone
from discord_connections as d
join workspaces as w on w.id = d.workspace_id
where d.application_id = ${applicationId}
order by d.workspace_id`,
  );
}

export interface ChatMember {
  readonly user_id: string;
  /** JSON array of the member's permissions. */
  readonly permissions: string;
}

/** The member of the workspace with this chat user id (the first by user id). */
export async function findChatMember(db: Executor, workspaceId: string, chatUserId: string): Promise<ChatMember | undefined> {
  return db
    .selectFrom('members')
    .select(['user_id', 'permissions'])
    .where('workspace_id', '=', workspaceId)
    .where('chat_user_id', '=', chatUserId)
    .orderBy('user_id')
    .limit(1)
    .executeTakeFirst();
}

export interface WorkspaceConnection {
  readonly application_id: string;
  readonly guild_id: string | null;
}

/** The workspace's Discord application and its chat guild, when it has one. */
export async function findWorkspaceConnection(db: Executor, workspaceId: string): Promise<WorkspaceConnection | undefined> {
  return db
    .selectFrom('discord_connections as d')
    .innerJoin('workspaces as w', 'w.id', 'd.workspace_id')
    .select(['d.application_id', 'w.chat_guild_id as guild_id'])
    .where('d.workspace_id', '=', workspaceId)
    .executeTakeFirst();
}
