/**
 * The erasure requests' queries: the workspace's webhook secret (read only to verify a signature) and the record
 * of each notification handled, which the feature owns (`roblox_erasure_requests`).
 */
import type { Executor, RobloxErasureRequestTable } from '../../db/types.ts';

export async function findWebhookSecret(db: Executor, workspaceId: string): Promise<string | null> {
  const row = await db.selectFrom('roblox_settings').select('webhook_secret').where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row?.webhook_secret ?? null;
}

export async function findErasureRequest(db: Executor, workspaceId: string, notificationId: string) {
  return db
    .selectFrom('roblox_erasure_requests')
    .select(['status', 'received_at'])
    .where('workspace_id', '=', workspaceId)
    .where('notification_id', '=', notificationId)
    .executeTakeFirst();
}

/** Records a handled notification unless it is recorded; returns whether this call recorded it. */
export async function insertErasureRequest(db: Executor, row: RobloxErasureRequestTable): Promise<boolean> {
  const result = await db
    .insertInto('roblox_erasure_requests')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'notification_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
