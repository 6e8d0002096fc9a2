import { toIso } from '../../clock.ts';
import type { Insertable } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { Executor, WebhookDeliveryTable, WebhookEventTable } from '../../db/types.ts';
import { newTimeOrderedId } from '../../ids.ts';
import { subscribes, type WebhookEventType } from './event-types.ts';

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

// The common case, one workspace's event (every start and stop): statements built once (src/db/prepared.ts).
const selectEndpointsOf = prepared<{ workspaceId: string }, EndpointSubscription>((db, p) =>
  db.selectFrom('webhook_endpoints').select(['id', 'workspace_id', 'events']).where('workspace_id', '=', p('workspaceId')).where('enabled', '=', 1),
);

/** An enabled endpoint as the subscriber reads return it. */
export interface EndpointSubscription {
  readonly id: string;
  readonly workspace_id: string;
  /** The JSON array of event types it subscribes to. */
  readonly events: string;
}

/** Of `endpoints`, those subscribed to `type`, by workspace (only workspaces that have one). */
export function subscribersOf(endpoints: readonly EndpointSubscription[], type: WebhookEventType): Map<string, string[]> {
  const subscribers = new Map<string, string[]>();
  for (const endpoint of endpoints) {
    if (!subscribes(JSON.parse(endpoint.events) as string[], type)) continue;
    const list = subscribers.get(endpoint.workspace_id) ?? [];
    list.push(endpoint.id);
    subscribers.set(endpoint.workspace_id, list);
  }
  return subscribers;
}

/** Enabled endpoints subscribed to `type`, by workspace (only workspaces that have one). One indexed read. */
export async function findSubscribers(
  trx: Executor,
  workspaceIds: readonly string[],
  type: WebhookEventType,
): Promise<Map<string, string[]>> {
  const [only] = workspaceIds;
  if (only === undefined) return new Map();
  const endpoints =
    workspaceIds.length === 1
      ? await selectEndpointsOf.rows(trx, { workspaceId: only })
      : await trx
          .selectFrom('webhook_endpoints')
          .select(['id', 'workspace_id', 'events'])
          .where('workspace_id', 'in', [...workspaceIds])
          .where('enabled', '=', 1)
          .execute();
  return subscribersOf(endpoints, type);
}

// Rows per multi-row insert: well under both stores' bound-parameter limits.
const INSERT_CHUNK = 200;

type EventValues = Insertable<WebhookEventTable>;
type DeliveryValues = Insertable<WebhookDeliveryTable>;
const insertEvent = prepared<EventValues, never>((db, p) =>
  db.insertInto('webhook_events').values({
    id: p('id'),
    workspace_id: p('workspace_id'),
    type: p('type'),
    environment: p('environment'),
    body: p('body'),
    created_at: p('created_at'),
  }),
);
const insertDelivery = prepared<DeliveryValues, never>((db, p) =>
  db.insertInto('webhook_deliveries').values({
    id: p('id'),
    event_id: p('event_id'),
    endpoint_id: p('endpoint_id'),
    workspace_id: p('workspace_id'),
    status: p('status'),
    attempts: p('attempts'),
    next_attempt_at: p('next_attempt_at'),
    expires_at: p('expires_at'),
    created_at: p('created_at'),
    updated_at: p('updated_at'),
  }),
);

/** Rows in multi-row inserts; a single row through its statement built once. */
async function insertRows<V>(
  rows: readonly V[],
  one: (row: V) => Promise<unknown>,
  many: (rows: V[]) => Promise<unknown>,
): Promise<void> {
  const [only] = rows;
  if (rows.length === 1 && only !== undefined) {
    await one(only);
    return;
  }
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await many(rows.slice(i, i + INSERT_CHUNK));
}

/** Writes the events and one pending delivery per subscriber of each event's workspace (see findSubscribers). */
export async function writeWebhookEvents(
  trx: Executor,
  events: readonly WebhookEvent[],
  subscribers: ReadonlyMap<string, readonly string[]>,
): Promise<number> {
  const wanted = events.filter((event) => (subscribers.get(event.workspaceId)?.length ?? 0) > 0);
  const eventRows = wanted.map(
    (event): EventValues => ({
      id: event.id,
      workspace_id: event.workspaceId,
      type: event.type,
      environment: event.environment,
      body: webhookBody(event),
      created_at: event.createdAt,
    }),
  );
  await insertRows(
    eventRows,
    (row) => insertEvent.execute(trx, row),
    (rows) => trx.insertInto('webhook_events').values(rows).execute(),
  );
  const deliveries = wanted.flatMap((event) =>
    (subscribers.get(event.workspaceId) ?? []).map((endpointId): DeliveryValues => ({
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
  await insertRows(
    deliveries,
    (row) => insertDelivery.execute(trx, row),
    (rows) => trx.insertInto('webhook_deliveries').values(rows).execute(),
  );
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
