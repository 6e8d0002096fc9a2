/**
 * Provisioning's queries of a workspace's Roblox group and ranks (roblox.ts), run in applyProvisioning's
 * transaction. The secrets written here are read back only by the rank sync and the erasure webhook.
 */
import type { Executor, RankTable } from '../db/types.ts';

/** The stored ranks of the workspaces (what a document without `ranks` keeps). */
export async function findRanksOfWorkspaces(db: Executor, workspaceIds: readonly string[]) {
  if (workspaceIds.length === 0) return [];
  return db
    .selectFrom('ranks')
    .select(['workspace_id', 'name', 'assignable'])
    .where('workspace_id', 'in', [...workspaceIds])
    .execute();
}

/** Replaces the workspace's ranks with `rows` (the document lists them all). */
export async function replaceRanks(db: Executor, workspaceId: string, rows: readonly RankTable[]): Promise<void> {
  await db.deleteFrom('ranks').where('workspace_id', '=', workspaceId).execute();
  if (rows.length > 0) await db.insertInto('ranks').values([...rows]).execute();
}

/**
 * Writes the workspace's group; a secret the document leaves out keeps its stored value (as a webhook endpoint's
 * secret does).
 */
export async function upsertRobloxSettings(
  db: Executor,
  row: { workspaceId: string; groupId: string; apiKey: string | undefined; webhookSecret: string | undefined; now: number },
): Promise<void> {
  const secrets = {
    ...(row.apiKey !== undefined ? { api_key: row.apiKey } : {}),
    ...(row.webhookSecret !== undefined ? { webhook_secret: row.webhookSecret } : {}),
  };
  await db
    .insertInto('roblox_settings')
    .values({
      workspace_id: row.workspaceId,
      group_id: row.groupId,
      api_key: row.apiKey ?? null,
      webhook_secret: row.webhookSecret ?? null,
      updated_at: row.now,
    })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ group_id: row.groupId, updated_at: row.now, ...secrets }))
    .execute();
}
