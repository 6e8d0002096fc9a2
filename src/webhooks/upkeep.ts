/**
 * The statements other modules run on the webhook tables, `webhook_events`, `webhook_deliveries` and
 * `webhook_attempts` (docs/DATA.md): an erasure's search for and rewrite of stored copies and receivers' answers,
 * and retention's prune.
 */
import { sql } from 'kysely';
import { deleteInBatch } from '../db/batch-delete.ts';
import { skipLocked } from '../db/dialect.ts';
import type { Executor } from '../db/types.ts';
import { containing, type StoredCopy } from '../shared/stored-copy.ts';

/** Webhook events (delivered or not) whose body mentions one of `needles`. */
export async function findWebhookCopies(
  db: Executor,
  needles: readonly string[],
  workspaceId: string | null = null,
): Promise<Array<StoredCopy<string>>> {
  const rows = await db
    .selectFrom('webhook_events')
    .select(['id', 'body'])
    .where((eb) => eb.or(needles.map((needle) => eb('body', 'like', containing(needle)))))
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ key: row.id, text: row.body }));
}

export async function setWebhookBody(db: Executor, id: string, body: string): Promise<void> {
  await db.updateTable('webhook_events').set({ body }).where('id', '=', id).execute();
}

/** What receivers answered to the events' deliveries (their excerpts may echo the body). */
export async function findReceiverAnswers(
  db: Executor,
  eventIds: readonly string[],
): Promise<{
  deliveries: Array<{ id: string; last_response: string | null; last_error: string | null }>;
  attempts: Array<{ id: string; response_excerpt: string | null; error: string | null }>;
}> {
  if (eventIds.length === 0) return { deliveries: [], attempts: [] };
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'last_response', 'last_error'])
    .where('event_id', 'in', [...eventIds])
    .orderBy('id')
    .execute();
  const attempts = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.id', 'a.response_excerpt', 'a.error'])
    .where('d.event_id', 'in', [...eventIds])
    .orderBy('a.id')
    .execute();
  return { deliveries, attempts };
}

export async function clearDeliveryAnswer(db: Executor, id: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ last_response: null, last_error: null }).where('id', '=', id).execute();
}

export async function clearAttemptAnswer(db: Executor, id: string): Promise<void> {
  await db.updateTable('webhook_attempts').set({ response_excerpt: null, error: null }).where('id', '=', id).execute();
}

/** Attempts older than `cutoff`, except those of a delivery still pending (its history is the dispatcher's). */
export function deleteAttemptsBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleteInBatch(
    db,
    sql`delete from webhook_attempts where id in (
  select a.id from webhook_attempts as a
  where a.started_at < ${cutoff}
    and not exists (select 1 from webhook_deliveries as d where d.id = a.delivery_id and d.status = 'pending')
  order by a.started_at limit ${limit}${skipLocked(db)})`,
  );
}

/**
 * Finished deliveries (delivered or given up) last changed before `cutoff` and with no attempt left. Never a
 * pending one, whatever its age: the dispatcher may hold it (a claim) or send it again, and an operator's
 * redelivery makes an old one pending; the outer `status` test sees a redelivery that commits while this waits.
 */
export function deleteDeliveriesBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleteInBatch(
    db,
    sql`delete from webhook_deliveries where status <> 'pending' and id in (
  select d.id from webhook_deliveries as d
  where d.status <> 'pending' and d.updated_at < ${cutoff}
    and not exists (select 1 from webhook_attempts as a where a.delivery_id = d.id)
  order by d.updated_at limit ${limit}${skipLocked(db)})`,
  );
}

/** Webhook events written before `cutoff` that no delivery refers to any more. */
export function deleteWebhookEventsBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleteInBatch(
    db,
    sql`delete from webhook_events where id in (
  select e.id from webhook_events as e
  where e.created_at < ${cutoff}
    and not exists (select 1 from webhook_deliveries as d where d.event_id = e.id)
  order by e.created_at limit ${limit}${skipLocked(db)})`,
  );
}
