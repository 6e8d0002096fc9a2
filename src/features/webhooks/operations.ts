import { toIso } from '../../clock.ts';
import type { Store } from '../../db/store.ts';
import type { Db } from '../../db/types.ts';
import { AppError, notFound } from '../../errors.ts';
import { newTimeOrderedId } from '../../ids.ts';
import { DELIVERY_WINDOW_MS } from './outbox.ts';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryView {
  readonly id: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly endpointId: string;
  readonly status: string;
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastStatus: number | null;
  readonly lastDurationMs: number | null;
  readonly lastResponse: string | null;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly deliveredAt: string | null;
}

/** A workspace's most recent deliveries, newest first (never a secret, never a URL's query). */
export async function listDeliveries(
  db: Db,
  filter: { readonly workspaceId: string; readonly status?: DeliveryStatus; readonly limit: number },
): Promise<DeliveryView[]> {
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
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    endpointId: row.endpoint_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? toIso(row.next_attempt_at) : null,
    lastStatus: row.last_status,
    lastDurationMs: row.last_duration_ms,
    lastResponse: row.last_response,
    lastError: row.last_error,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    deliveredAt: row.delivered_at === null ? null : toIso(row.delivered_at),
  }));
}

/**
 * Sends an event again: its deliveries (or the one to `endpointId`, created when that endpoint of the event's
 * workspace had none) become pending and due now, with a fresh delivery window. Attempt history is kept.
 */
export async function redeliver(
  write: Store['write'],
  now: number,
  request: { readonly eventId: string; readonly endpointId?: string },
): Promise<Array<{ id: string; endpointId: string; status: 'pending' }>> {
  return write(async (trx) => {
    const event = await trx
      .selectFrom('webhook_events')
      .select(['id', 'workspace_id'])
      .where('id', '=', request.eventId)
      .executeTakeFirst();
    if (!event) throw notFound('The event');
    if (request.endpointId !== undefined) {
      const endpoint = await trx
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('id', '=', request.endpointId)
        .where('workspace_id', '=', event.workspace_id)
        .executeTakeFirst();
      if (!endpoint) throw notFound('The endpoint');
      await trx
        .insertInto('webhook_deliveries')
        .values({
          id: newTimeOrderedId(),
          event_id: event.id,
          endpoint_id: endpoint.id,
          workspace_id: event.workspace_id,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          expires_at: now + DELIVERY_WINDOW_MS,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
        .execute();
    }
    let update = trx
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        next_attempt_at: now,
        expires_at: now + DELIVERY_WINDOW_MS,
        claimed_until: null,
        claimed_by: null,
        updated_at: now,
      })
      .where('event_id', '=', event.id);
    if (request.endpointId !== undefined) update = update.where('endpoint_id', '=', request.endpointId);
    const rows = await update.returning(['id', 'endpoint_id']).execute();
    if (rows.length === 0) {
      throw new AppError('validation_failed', 'The event has no deliveries; name an endpoint with --endpoint.');
    }
    return rows.map((row) => ({ id: row.id, endpointId: row.endpoint_id, status: 'pending' as const }));
  });
}
