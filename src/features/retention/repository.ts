/**
 * The prune's deletions (docs/OPERATING.md, "Retention"): one batch of a table's records older than a cutoff,
 * oldest first, read through the index on the age it is pruned by (migration 0010). Each returns how many rows it
 * deleted. On PostgreSQL a batch skips the rows another instance's batch is deleting (`for update skip locked`),
 * so instances pruning at once neither wait on nor deadlock with each other; on SQLite one process writes.
 */
import { sql, type RawBuilder } from 'kysely';
import { dialectOf, skipLocked } from '../../db/dialect.ts';
import type { Executor } from '../../db/types.ts';

/**
 * Runs a batch; on PostgreSQL in a transaction of its own whose plans neither sort, scan whole tables nor hash
 * or merge joins, so the batch walks the age index in order and probes each row's children or parent by index,
 * whatever the statistics say. They are stale while a prune runs: taken when every command still had its event
 * records, they priced the anti-join of a batch of commands at one row, and PostgreSQL hash-joined all commands
 * with all event records for every batch (docs/OPERATING.md, "Measured: pruning a million rows").
 */
async function deleted(db: Executor, statement: RawBuilder<unknown>): Promise<number> {
  if (dialectOf(db) === 'sqlite') return Number((await statement.execute(db)).numAffectedRows ?? 0);
  const run = async (trx: Executor) => {
    await sql`select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin`.execute(trx);
    return Number((await statement.execute(trx)).numAffectedRows ?? 0);
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Attempts older than `cutoff`, except those of a delivery still pending (its history is the dispatcher's). */
export function deleteAttemptsBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleted(
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
  return deleted(
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
  return deleted(
    db,
    sql`delete from webhook_events where id in (
  select e.id from webhook_events as e
  where e.created_at < ${cutoff}
    and not exists (select 1 from webhook_deliveries as d where d.event_id = e.id)
  order by e.created_at limit ${limit}${skipLocked(db)})`,
  );
}

/** Event records written before `cutoff`. */
export function deleteEventsBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleted(
    db,
    sql`delete from events where id in (
  select e.id from events as e where e.created_at < ${cutoff} order by e.created_at limit ${limit}${skipLocked(db)})`,
  );
}

/** Command records written before `cutoff` that no event record refers to any more. */
export function deleteCommandsBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleted(
    db,
    sql`delete from commands where id in (
  select c.id from commands as c
  where c.created_at < ${cutoff}
    and not exists (select 1 from events as e where e.command_id = c.id)
  order by c.created_at limit ${limit}${skipLocked(db)})`,
  );
}

/** Console sign-in codes that expired before `cutoff`, used or not (a code is useless once expired). */
export function deleteSignInCodesBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleted(
    db,
    sql`delete from console_sign_in_codes where code_hash in (
  select c.code_hash from console_sign_in_codes as c where c.expires_at < ${cutoff} order by c.expires_at limit ${limit}${skipLocked(db)})`,
  );
}
