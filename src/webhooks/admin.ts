import { toIso } from '../shared/clock.ts';
import type { Store } from '../db/store.ts';
import type { Db } from '../db/types.ts';
import { AppError, notFound } from '../shared/errors.ts';
import { newTimeOrderedId } from '../shared/ids.ts';
import {
  endpointInWorkspace,
  findEvent,
  insertDeliveryUnlessExists,
  recentDeliveries,
  resetDeliveries,
} from './admin-repository.ts';
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
  const rows = await recentDeliveries(db, filter);
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
    const event = await findEvent(trx, request.eventId);
    if (!event) throw notFound('The event');
    const expiresAt = now + DELIVERY_WINDOW_MS;
    const { endpointId } = request;
    if (endpointId !== undefined) {
      if (!(await endpointInWorkspace(trx, endpointId, event.workspace_id))) throw notFound('The endpoint');
      const delivery = { id: newTimeOrderedId(), eventId: event.id, endpointId, workspaceId: event.workspace_id };
      await insertDeliveryUnlessExists(trx, delivery, now, expiresAt);
    }
    const target = { eventId: event.id, ...(endpointId !== undefined ? { endpointId } : {}) };
    const rows = await resetDeliveries(trx, target, now, expiresAt);
    if (rows.length === 0) {
      throw new AppError('validation_failed', 'The event has no deliveries; name an endpoint with --endpoint.');
    }
    return rows.map((row) => ({ id: row.id, endpointId: row.endpoint_id, status: 'pending' as const }));
  });
}
