/**
 * The `discord` block of a workspace (docs/DISCORD.md, "Configuration"): the checks between workspaces, against
 * the document and the store, and the write. Workspaces sharing one Discord application must carry the same
 * public key and distinct guilds; a document may change the key of all of them at once.
 */
import type { Executor } from '../db/types.ts';
import { ProvisioningError, jsonPath, type ProvisioningIssue } from './errors.ts';
import {
  deleteDiscordConnections,
  findDiscordConnections,
  upsertDiscordConnection,
  type StoredDiscordConnection,
} from './discord-repository.ts';
import type { ProvisioningDocument } from './schema.ts';

interface Connection {
  readonly workspaceId: string;
  readonly applicationId: string;
  readonly publicKey: string;
  readonly guildId: string | null;
  /** Where the document says it; undefined for a stored workspace the document leaves out. */
  readonly path?: string;
}

function documentConnections(document: ProvisioningDocument): Connection[] {
  return document.workspaces.flatMap((workspace, w) =>
    workspace.discord === undefined
      ? []
      : [
          {
            workspaceId: workspace.id.toLowerCase(),
            applicationId: workspace.discord.applicationId,
            publicKey: workspace.discord.publicKey.toLowerCase(),
            guildId: workspace.chat?.guildId ?? null,
            path: jsonPath('workspaces', w, 'discord'),
          },
        ],
  );
}

/** The rules over every workspace of each application: the document's, then the stored ones it leaves out. */
function connectionIssues(connections: readonly Connection[]): ProvisioningIssue[] {
  const issues: ProvisioningIssue[] = [];
  const byApplication = new Map<string, Connection[]>();
  for (const connection of connections) {
    if (connection.path !== undefined && connection.guildId === null) {
      issues.push({ path: connection.path, message: 'needs the workspace\'s chat.guildId (the Discord server it answers in)' });
    }
    byApplication.set(connection.applicationId, [...(byApplication.get(connection.applicationId) ?? []), connection]);
  }
  for (const [applicationId, group] of byApplication) {
    const first = group[0]!;
    const guilds = new Map<string, string>();
    for (const connection of group) {
      const where = connection.path ?? `the stored workspace ${connection.workspaceId}`;
      if (connection.publicKey !== first.publicKey) {
        issues.push(
          connection.path !== undefined
            ? { path: `${connection.path}.publicKey`, message: `differs from ${first.path ?? '$'}.publicKey, which names the same Discord application (${applicationId})` }
            : {
                path: `${first.path ?? '$'}.publicKey`,
                message: `differs from the key of ${where}, which uses the same Discord application (${applicationId}): give every workspace of it the same key`,
              },
        );
      }
      if (connection.guildId === null) continue;
      const other = guilds.get(connection.guildId);
      if (other !== undefined) {
        issues.push({
          path: connection.path ?? first.path ?? '$',
          message: `Discord application ${applicationId} already answers in guild ${connection.guildId} for ${other}`,
        });
      } else guilds.set(connection.guildId, where);
    }
  }
  return issues;
}

/** Rules that need only the document. */
export function discordDocumentIssues(document: ProvisioningDocument): ProvisioningIssue[] {
  return connectionIssues(documentConnections(document));
}

function storedConnection(row: StoredDiscordConnection): Connection {
  return { workspaceId: row.workspace_id, applicationId: row.application_id, publicKey: row.public_key, guildId: row.guild_id };
}

/**
 * In the caller's transaction: the document's connections checked against the stored workspaces it leaves out
 * (ProvisioningError, nothing written, when a rule breaks), then written; a workspace of the document without
 * `discord` is disconnected.
 */
export async function writeDiscord(trx: Executor, document: ProvisioningDocument, now: number): Promise<void> {
  const connections = documentConnections(document);
  const inDocument = new Set(document.workspaces.map((workspace) => workspace.id.toLowerCase()));
  const stored = await findDiscordConnections(trx, [...new Set(connections.map((c) => c.applicationId))]);
  const outside = stored.filter((row) => !inDocument.has(row.workspace_id)).map(storedConnection);
  const issues = connectionIssues([...connections, ...outside]);
  if (issues.length > 0) throw new ProvisioningError(issues);
  await deleteDiscordConnections(
    trx,
    document.workspaces.filter((workspace) => workspace.discord === undefined).map((workspace) => workspace.id.toLowerCase()),
  );
  for (const workspace of document.workspaces) {
    if (workspace.discord === undefined) continue;
    await upsertDiscordConnection(trx, {
      workspace_id: workspace.id.toLowerCase(),
      application_id: workspace.discord.applicationId,
      public_key: workspace.discord.publicKey.toLowerCase(),
      environment: workspace.discord.environment ?? 'live',
      updated_at: now,
    });
  }
}
