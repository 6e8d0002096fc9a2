/**
 * Provisioning's queries of Discord connections (docs/DISCORD.md): what the stored workspaces of the document's
 * Discord applications hold, and the writes that make the store match the document, in its one transaction.
 */
import type { DiscordConnectionTable, Executor } from '../db/types.ts';

export interface StoredDiscordConnection {
  readonly workspace_id: string;
  readonly application_id: string;
  readonly public_key: string;
  readonly guild_id: string | null;
}

/** The connected workspaces of these Discord applications, with their chat guild. */
export async function findDiscordConnections(
  db: Executor,
  applicationIds: readonly string[],
): Promise<StoredDiscordConnection[]> {
  if (applicationIds.length === 0) return [];
  return db
    .selectFrom('discord_connections as d')
    .innerJoin('workspaces as w', 'w.id', 'd.workspace_id')
    .select(['d.workspace_id', 'd.application_id', 'd.public_key', 'w.chat_guild_id as guild_id'])
    .where('d.application_id', 'in', [...applicationIds])
    .orderBy('d.workspace_id')
    .execute();
}

/** Connects the workspace, or changes its connection, to what the document says. */
export async function upsertDiscordConnection(db: Executor, row: DiscordConnectionTable): Promise<void> {
  await db
    .insertInto('discord_connections')
    .values(row)
    .onConflict((oc) =>
      oc.column('workspace_id').doUpdateSet({
        application_id: row.application_id,
        public_key: row.public_key,
        environment: row.environment,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** Disconnects these workspaces (their documents carry no `discord` block). */
export async function deleteDiscordConnections(db: Executor, workspaceIds: readonly string[]): Promise<void> {
  if (workspaceIds.length === 0) return;
  await db.deleteFrom('discord_connections').where('workspace_id', 'in', [...workspaceIds]).execute();
}
