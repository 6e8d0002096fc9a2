import { toIso } from '../../clock.js';
import type { Executor } from '../../db/types.js';
import { newTimeOrderedId } from '../../ids.js';
import { subscribes, type WebhookEventType } from './event-types.js';

/** How long a delivery is retried, counted from its event. */
export const DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface WebhookEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly workspaceId: string;
  /** The key's environment for activity events; null for dashboard actions (submission decisions). */
  readonly environment: 'test' | 'live' | null;
  readonly createdAt: number;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The body every endpoint receives for an event, the same bytes on every attempt. */
export function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: toIso(event.createdAt),
    workspaceId: event.workspaceId,
    environment: event.environment,
    data: event.data,
  });
}

/** Enabled endpoints subscribed to `type`, by workspace (only workspaces that have one). One indexed read. */
export async function findSubscribers(
  trx: Executor,
  workspaceIds: readonly string[],
  type: WebhookEventType,
): Promise<Map<string, string[]>> {
  const subscribers = new Map<string, string[]>();
  if (workspaceIds.length === 0) return subscribers;
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'workspace_id', 'events'])
    .where('workspace_id', workspaceIds.length === 1 ? '=' : 'in', workspaceIds.length === 1 ? workspaceIds[0]! : [...workspaceIds])
    .where('enabled', '=', 1)
    .execute();
  for (const endpoint of endpoints) {
    if (!subscribes(JSON.parse(endpoint.events) as string[], type)) continue;
    const list = subscribers.get(endpoint.workspace_id) ?? [];
    list.push(endpoint.id);
    subscribers.set(endpoint.workspace_id, list);
  }
  return subscribers;
}

// Rows per multi-row insert: well under both stores' bound-parameter limits.
const INSERT_CHUNK = 200;

/** Writes the events and one pending delivery per subscriber of each event's workspace (see findSubscribers). */
export async function writeWebhookEvents(
  trx: Executor,
  events: readonly WebhookEvent[],
  subscribers: ReadonlyMap<string, readonly string[]>,
): Promise<number> {
  const wanted = events.filter((event) => (subscribers.get(event.workspaceId)?.length ?? 0) > 0);
  for (let i = 0; i < wanted.length; i += INSERT_CHUNK) {
    const chunk = wanted.slice(i, i + INSERT_CHUNK);
    await trx
      .insertInto('webhook_events')
      .values(
        chunk.map((event) => ({
          id: event.id,
          workspace_id: event.workspaceId,
          type: event.type,
          environment: event.environment,
          body: webhookBody(event),
          created_at: event.createdAt,
        })),
      )
      .execute();
  }
  const deliveries = wanted.flatMap((event) =>
    (subscribers.get(event.workspaceId) ?? []).map((endpointId) => ({
      id: newTimeOrderedId(),
      event_id: event.id,
      endpoint_id: endpointId,
      workspace_id: event.workspaceId,
      status: 'pending',
      attempts: 0,
      next_attempt_at: event.createdAt,
      expires_at: event.createdAt + DELIVERY_WINDOW_MS,
      created_at: event.createdAt,
      updated_at: event.createdAt,
    })),
  );
  for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
    await trx.insertInto('webhook_deliveries').values(deliveries.slice(i, i + INSERT_CHUNK)).execute();
  }
  return deliveries.length;
}

/**
 * Records the event in the outbox, in the caller's transaction: one pending delivery per enabled endpoint of the
 * workspace subscribed to the type. When no endpoint wants it, nothing is written (one indexed read). Returns how
 * many deliveries were enqueued.
 */
export async function enqueueWebhookEvent(trx: Executor, event: WebhookEvent): Promise<number> {
  const subscribers = await findSubscribers(trx, [event.workspaceId], event.type);
  if (subscribers.size === 0) return 0;
  return writeWebhookEvents(trx, [event], subscribers);
}

/** Deliveries not yet acknowledged nor given up (the metrics gauge and the backlog log line read it). */
export async function countPendingDeliveries(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
