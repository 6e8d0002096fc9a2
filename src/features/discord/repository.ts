/**
 * The reads of an interaction (docs/DISCORD.md): the workspaces a Discord application answers for, and the member
 * a Discord user is in one of them.
 */
import { sql } from 'kysely';
import type { Environment } from '../../shared/actor.ts';
import { CompiledOnce } from '../../db/compiled.ts';
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

/**
 * Every interaction runs it first, before its signature is checked: compiled once per store, so a request neither
 * builds and compiles the statement nor looks its prepared statement up by a string made anew.
 */
const APPLICATION_WORKSPACES = new CompiledOnce<{ readonly applicationId: string }, ApplicationWorkspace>(
  (term) => sql`select d.workspace_id, d.public_key, d.environment, w.chat_guild_id as guild_id, w.chat_status, w.timezone
from discord_connections as d
join workspaces as w on w.id = d.workspace_id
where d.application_id = ${term('applicationId')}
order by d.workspace_id`,
);

/** The workspaces connected to this Discord application, each with its chat guild and time zone. */
export async function findApplicationWorkspaces(db: Executor, applicationId: string): Promise<ApplicationWorkspace[]> {
  return APPLICATION_WORKSPACES.rows(db, { applicationId });
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
