/** The queries of the operators' webhook commands (operations.ts): listing deliveries and sending events again. */
import type { Executor } from '../db/types.ts';

/** A workspace's most recent deliveries with their event's type, newest first; of one status when given. */
export async function recentDeliveries(
  db: Executor,
  filter: { readonly workspaceId: string; readonly status?: string; readonly limit: number },
) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select('e.type as event_type')
    .where('d.workspace_id', '=', filter.workspaceId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(filter.limit);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  return query.execute();
}

export async function findEvent(
  db: Executor,
  eventId: string,
): Promise<{ readonly id: string; readonly workspace_id: string } | undefined> {
  return db.selectFrom('webhook_events').select(['id', 'workspace_id']).where('id', '=', eventId).executeTakeFirst();
}

/** Whether the endpoint exists in the workspace. */
export async function endpointInWorkspace(db: Executor, endpointId: string, workspaceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('id', '=', endpointId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A pending delivery of the event to the endpoint, due `now`, unless the event has one to it already. */
export async function insertDeliveryUnlessExists(
  db: Executor,
  delivery: { readonly id: string; readonly eventId: string; readonly endpointId: string; readonly workspaceId: string },
  now: number,
  expiresAt: number,
): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      event_id: delivery.eventId,
      endpoint_id: delivery.endpointId,
      workspace_id: delivery.workspaceId,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      expires_at: expiresAt,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
    .execute();
}

/**
 * Makes the event's deliveries (or its one to `endpointId`) pending, due `now`, unclaimed, until `expiresAt`;
 * attempt history is kept. Returns the deliveries it changed.
 */
export async function resetDeliveries(
  db: Executor,
  target: { readonly eventId: string; readonly endpointId?: string },
  now: number,
  expiresAt: number,
): Promise<Array<{ readonly id: string; readonly endpoint_id: string }>> {
  let update = db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: now,
      expires_at: expiresAt,
      claimed_until: null,
      claimed_by: null,
      updated_at: now,
    })
    .where('event_id', '=', target.eventId);
  if (target.endpointId !== undefined) update = update.where('endpoint_id', '=', target.endpointId);
  return update.returning(['id', 'endpoint_id']).execute();
}
