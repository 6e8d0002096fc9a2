import { DAY_MS, toIso } from '../shared/clock.ts';
import { sql, type RawBuilder } from 'kysely';
import { notifyAfterCommit } from '../db/connect.ts';
import { inJsonList, rowsOf, selectJsonRows, type RecordsetColumnType } from '../db/dialect.ts';
import type { Executor } from '../db/types.ts';
import { newTimeOrderedId } from '../shared/ids.ts';
import { subscribes, type WebhookEventType } from './event-types.ts';

/** How long a delivery is retried, counted from its event. */
export const DELIVERY_WINDOW_MS = DAY_MS;

export interface WebhookEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly workspaceId: string;
  /**
   * The environment the event's data belongs to: the key's for activity events and a submission's intake, the
   * submission's for its review decisions. The envelope allows null for an event of no environment.
   */
  readonly environment: 'test' | 'live' | null;
  readonly createdAt: number;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The body every endpoint receives for an event, the same bytes on every attempt. */
function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: toIso(event.createdAt),
    workspaceId: event.workspaceId,
    environment: event.environment,
    data: event.data,
  });
}

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

/** The read of the workspaces' enabled endpoints (one indexed read), for findSubscribers or enqueueWebhookEvent. */
export function enabledEndpoints(trx: Executor, workspaceIds: readonly string[]): RawBuilder<EndpointSubscription> {
  return sql<EndpointSubscription>`select id, workspace_id, events from webhook_endpoints
where ${inJsonList(trx, 'workspace_id', workspaceIds)} and enabled = 1`;
}

/** Enabled endpoints subscribed to `type`, by workspace (only workspaces that have one). One indexed read. */
export async function findSubscribers(
  trx: Executor,
  workspaceIds: readonly string[],
  type: WebhookEventType,
): Promise<Map<string, string[]>> {
  if (workspaceIds.length === 0) return new Map();
  return subscribersOf(await rowsOf(trx, enabledEndpoints(trx, workspaceIds)), type);
}

/** Rows per insert: bounds one statement's work (and its JSON value) when a sweep completes many shifts. */
const INSERT_CHUNK = 200;

/**
 * Inserts the rows into `into` (its columns: `columns`, then those of `constants`), INSERT_CHUNK at a time, each
 * chunk one JSON value.
 */
async function insertInChunks(
  trx: Executor,
  rows: readonly object[],
  into: RawBuilder<unknown>,
  columns: Readonly<Record<string, RecordsetColumnType>>,
  constants?: RawBuilder<unknown>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await sql`insert into ${into}
${selectJsonRows(trx, rows.slice(i, i + INSERT_CHUNK), columns, constants)}`.execute(trx);
  }
}

/** Writes the events and one pending delivery per subscriber of each event's workspace (see findSubscribers). */
export async function writeWebhookEvents(
  trx: Executor,
  events: readonly WebhookEvent[],
  subscribers: ReadonlyMap<string, readonly string[]>,
): Promise<number> {
  const wanted = events.filter((event) => (subscribers.get(event.workspaceId)?.length ?? 0) > 0);
  await insertInChunks(
    trx,
    wanted.map((event) => ({
      id: event.id,
      workspace_id: event.workspaceId,
      type: event.type,
      environment: event.environment,
      body: webhookBody(event),
      created_at: event.createdAt,
    })),
    sql`webhook_events (id, workspace_id, type, environment, body, created_at)`,
    { id: 'text', workspace_id: 'text', type: 'text', environment: 'text', body: 'text', created_at: 'bigint' },
  );
  const deliveries = wanted.flatMap((event) =>
    (subscribers.get(event.workspaceId) ?? []).map((endpointId) => ({
      id: newTimeOrderedId(),
      event_id: event.id,
      endpoint_id: endpointId,
      workspace_id: event.workspaceId,
      next_attempt_at: event.createdAt,
      expires_at: event.createdAt + DELIVERY_WINDOW_MS,
      created_at: event.createdAt,
      updated_at: event.createdAt,
    })),
  );
  await insertInChunks(
    trx,
    deliveries,
    sql`webhook_deliveries
  (id, event_id, endpoint_id, workspace_id, next_attempt_at, expires_at, created_at, updated_at, status, attempts)`,
    {
      id: 'text',
      event_id: 'text',
      endpoint_id: 'text',
      workspace_id: 'text',
      next_attempt_at: 'bigint',
      expires_at: 'bigint',
      created_at: 'bigint',
      updated_at: 'bigint',
    },
    sql`'pending', 0`,
  );
  // Its commit wakes this process's dispatcher (src/server.ts), so the deliveries go out at once.
  if (deliveries.length > 0) notifyAfterCommit(trx);
  return deliveries.length;
}

/**
 * Records the event in the outbox, in the caller's transaction: one pending delivery per endpoint of `endpoints`
 * (its workspace's enabled ones, read by `enabledEndpoints` in that transaction) subscribed to the type. When no
 * endpoint wants it, nothing is written. Returns how many deliveries were enqueued.
 */
export async function enqueueWebhookEvent(
  trx: Executor,
  event: WebhookEvent,
  endpoints: readonly EndpointSubscription[],
): Promise<number> {
  const subscribers = subscribersOf(endpoints, event.type);
  if (subscribers.size === 0) return 0;
  return writeWebhookEvents(trx, [event], subscribers);
}
