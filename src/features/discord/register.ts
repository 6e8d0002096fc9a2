/**
 * `discord register`: replaces a Discord server's commands with the gateway's (docs/DISCORD.md, "Registering the
 * commands"): one `PUT {DISCORD_API_URL}/applications/{applicationId}/guilds/{guildId}/commands` with the bot
 * token, and no other call to Discord. The token is only ever sent in that request's Authorization header.
 */
import type { Executor } from '../../db/types.ts';
import { commandNames, REGISTRATION } from './commands.ts';
import { findWorkspaceConnection } from './repository.ts';

export const DEFAULT_DISCORD_API_URL = 'https://discord.com/api/v10';

export class DiscordRegistrationError extends Error {
  override name = 'DiscordRegistrationError';
}

/** Where a workspace's commands go: its Discord application and server (an error when it has none). */
export async function registrationTarget(db: Executor, workspaceId: string): Promise<{ applicationId: string; guildId: string }> {
  const connection = await findWorkspaceConnection(db, workspaceId.toLowerCase());
  if (!connection) {
    throw new DiscordRegistrationError(`workspace ${workspaceId} has no discord block in its provisioning document (or does not exist)`);
  }
  if (connection.guild_id === null) throw new DiscordRegistrationError(`workspace ${workspaceId} has no chat.guildId`);
  return { applicationId: connection.application_id, guildId: connection.guild_id };
}

export interface RegisterOptions {
  readonly apiUrl: string;
  readonly token: string;
  readonly applicationId: string;
  readonly guildId: string;
  readonly fetch?: typeof fetch;
}

/** Sends the commands; the names registered, or Discord's answer as the error's message. */
export async function registerCommands({ apiUrl, token, applicationId, guildId, fetch: send = fetch }: RegisterOptions): Promise<string[]> {
  const url = `${apiUrl.replace(/\/+$/, '')}/applications/${applicationId}/guilds/${guildId}/commands`;
  let response: Response;
  try {
    response = await send(url, {
      method: 'PUT',
      headers: { authorization: `Bot ${token}`, 'content-type': 'application/json', 'user-agent': 'workspace-gateway (discord register)' },
      body: JSON.stringify(REGISTRATION),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new DiscordRegistrationError(`Discord could not be reached at ${apiUrl}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  if (!response.ok) throw new DiscordRegistrationError(`Discord refused the commands (HTTP ${response.status}): ${text}`);
  return commandNames();
}
