import { sql } from 'kysely';
import { inJsonList, jsonRecordset, notInJsonList, rowsOf, selectJsonRows, skipLocked } from '../db/dialect.ts';
import type { Store } from '../db/store.ts';
import type { Dialect, Executor } from '../db/types.ts';
import { newTimeOrderedId } from '../shared/ids.ts';

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly eventId: string;
  readonly endpointId: string;
  readonly attempts: number;
  readonly expiresAt: number;
  readonly url: string;
  readonly secret: string;
  readonly body: string;
  /** `standard` or `discord` (a Discord channel webhook: docs/DISCORD.md, "Channel posts"). */
  readonly format: string;
}

export interface ClaimOptions {
  readonly now: number;
  readonly limit: number;
  readonly leaseMs: number;
  readonly owner: string;
  /** How many more deliveries each endpoint may take now (endpoints absent here are not limited below `perEndpoint`). */
  readonly perEndpoint: number;
  readonly busy: ReadonlyMap<string, number>;
}

/**
 * A pending delivery's status as a literal, never a value: the partial index of pending deliveries
 * (webhook_deliveries_due) is then usable on both stores, and SQLite never compiles the statement again for a
 * value it compared with the index's predicate (src/db/dialect.ts).
 */
const PENDING = sql.lit('pending');

/** A claimed delivery's row, with what sending it needs. */
interface ClaimedDeliveryRow {
  readonly id: string;
  readonly event_id: string;
  readonly endpoint_id: string;
  readonly attempts: number;
  readonly expires_at: number;
  readonly url: string;
  readonly secret: string;
  readonly body: string;
  readonly format: string;
}

/**
 * For the rest of the transaction (PostgreSQL), plans neither sort, scan whole tables nor hash or merge joins,
 * whatever the tables' statistics say: the due deliveries are walked in the due index's order up to the claim's
 * limit, and the statements that name deliveries by id (claiming them, reading what was claimed, recording
 * results) find each by its primary key.
 */
async function useOutboxIndexes(trx: Executor): Promise<void> {
  await sql`select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin`.execute(trx);
}

/** SQL: a delivery is pending, due and unclaimed at `now`, and not of a `saturated` endpoint. */
function dueDeliveries(db: Executor, now: number, saturated: readonly string[]) {
  return sql<boolean>`status = 'pending' and next_attempt_at <= ${now} and (claimed_until is null or claimed_until <= ${now})
  and ${notInJsonList(db, 'endpoint_id', saturated)}`;
}

export interface Claim {
  readonly deliveries: ClaimedDelivery[];
  /** True when due deliveries were left: over the limit, or for an endpoint that has all it may take. */
  readonly more: boolean;
}

/**
 * Claims due pending deliveries for one instance: a lease (`claimed_until`) marks them taken, so another instance
 * skips them until the lease lapses (a crash), and on PostgreSQL `FOR UPDATE SKIP LOCKED` keeps two instances
 * claiming at the same moment from meeting at all. No endpoint gets more than `perEndpoint` in flight, so a slow
 * one cannot take every slot.
 */
export async function claimDueDeliveries(
  { db, write, dialect }: Pick<Store, 'db' | 'write' | 'dialect'>,
  options: ClaimOptions,
): Promise<Claim> {
  const saturated = [...options.busy].filter(([, n]) => n >= options.perEndpoint).map(([id]) => id);
  // An idle outbox costs one indexed read per poll, never a write transaction.
  const [due] = await rowsOf(
    db,
    sql<{ id: string }>`select id from webhook_deliveries
where ${dueDeliveries(db, options.now, saturated)}
limit 1`,
  );
  if (!due) return { deliveries: [], more: saturated.length > 0 };
  let more = saturated.length > 0;
  const rows = await write(async (trx) => {
    const batch = options.limit * 2;
    // A backlog written faster than PostgreSQL's statistics follow (an outage's, a burst's, or any while
    // autovacuum is off) looked to its planner like a few rows: it read every due row and sorted them to keep the
    // oldest few hundred (far slower than reading them in index order: docs/BENCHMARKS.md, "Smaller choices"), and
    // read the whole outbox to find the claimed ones by id.
    if (dialect === 'postgres') await useOutboxIndexes(trx);
    // Oldest due first; on PostgreSQL two instances claiming at the same moment never meet: each skips the rows
    // the other has locked.
    const candidates = await rowsOf(
      trx,
      sql<{ id: string; endpoint_id: string }>`select id, endpoint_id from webhook_deliveries
where ${dueDeliveries(trx, options.now, saturated)}
order by next_attempt_at
limit ${batch}${skipLocked(trx)}`,
    );
    more ||= candidates.length >= batch;
    const taken = new Map(options.busy);
    const chosen: string[] = [];
    for (const row of candidates) {
      if (chosen.length >= options.limit) {
        more = true;
        break;
      }
      const inFlight = taken.get(row.endpoint_id) ?? 0;
      if (inFlight >= options.perEndpoint) {
        more = true;
        continue;
      }
      taken.set(row.endpoint_id, inFlight + 1);
      chosen.push(row.id);
    }
    if (chosen.length === 0) return [];
    await sql`update webhook_deliveries set claimed_until = ${options.now + options.leaseMs}, claimed_by = ${options.owner}
where ${inJsonList(trx, 'id', chosen)}`.execute(trx);
    return rowsOf(
      trx,
      sql<ClaimedDeliveryRow>`select d.id, d.event_id, d.endpoint_id, d.attempts, d.expires_at, p.url, p.secret, e.body, p.format
from webhook_deliveries as d
join webhook_events as e on e.id = d.event_id
join webhook_endpoints as p on p.id = d.endpoint_id
where ${inJsonList(trx, 'd.id', chosen)}`,
    );
  });
  if (rows.length === 0) return { deliveries: [], more };
  const deliveries = rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    attempts: row.attempts,
    expiresAt: row.expires_at,
    url: row.url,
    secret: row.secret,
    body: row.body,
    format: row.format,
  }));
  return { deliveries, more };
}

/** The outcome of one attempt, and what becomes of the delivery. */
export interface AttemptRecord {
  readonly deliveryId: string;
  readonly owner: string;
  readonly attempt: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly durationMs: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly excerpt: string | null;
  /** delivered, failed (given up), or pending again at `nextAttemptAt`. */
  readonly outcome: 'delivered' | 'failed' | 'pending';
  readonly nextAttemptAt: number;
}

// Results recorded per statement: bounds one statement's work and its JSON value.
const RECORD_CHUNK = 200;

/**
 * Records finished attempts in the caller's transaction (with whatever else it writes: bringDeliveriesForward):
 * per chunk, one insert of the attempts and one update of the deliveries joined to the list of results (linear
 * in the chunk). A delivery whose lease another instance took meanwhile is left alone. Both statements take the
 * chunk as one JSON value, so their text is the same whatever the chunk's length: the store keeps one prepared
 * statement of each, not one per length (on SQLite each would hold its own compiled program).
 */
export async function recordAttempts(trx: Executor, dialect: Dialect, records: readonly AttemptRecord[]): Promise<void> {
  // A backlog written faster than PostgreSQL's statistics follow looked to its planner like a few pending rows,
  // and it hash-joined each chunk with every pending delivery, read through the due index (O(backlog) a chunk);
  // as nested loops each result finds its delivery by the primary key.
  if (dialect === 'postgres' && records.length > 0) await useOutboxIndexes(trx);
  for (let i = 0; i < records.length; i += RECORD_CHUNK) {
    const chunk = records.slice(i, i + RECORD_CHUNK);
    const attempts = chunk.map((r) => ({
      id: newTimeOrderedId(),
      delivery_id: r.deliveryId,
      attempt: r.attempt,
      started_at: r.startedAt,
      duration_ms: r.durationMs,
      status: r.status,
      error: r.error,
      response_excerpt: r.excerpt,
    }));
    const results = chunk.map((r) => ({
      id: r.deliveryId,
      owner: r.owner,
      outcome: r.outcome,
      attempt: r.attempt,
      next_attempt_at: r.nextAttemptAt,
      status: r.status,
      duration_ms: r.durationMs,
      excerpt: r.excerpt,
      error: r.error,
      finished_at: r.finishedAt,
      delivered_at: r.outcome === 'delivered' ? r.finishedAt : null,
    }));
    await sql`insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt)
${selectJsonRows(trx, attempts, {
      id: 'text',
      delivery_id: 'text',
      attempt: 'integer',
      started_at: 'bigint',
      duration_ms: 'integer',
      status: 'integer',
      error: 'text',
      response_excerpt: 'text',
    })}`.execute(trx);
    // The delivery a result applies to: its own, still claimed by the result's owner, hence still pending (a claim
    // takes only pending deliveries, and every change of status clears the claim). Not testing the status keeps
    // the partial index on pending deliveries out of the plan: on PostgreSQL, with statistics that took the
    // pending deliveries for a few rows, the planner read all of them through it for every chunk of results.
    await sql`update webhook_deliveries set
  status = results.outcome,
  attempts = results.attempt,
  next_attempt_at = results.next_attempt_at,
  claimed_until = null,
  claimed_by = null,
  last_status = results.status,
  last_duration_ms = results.duration_ms,
  last_response = results.excerpt,
  last_error = results.error,
  updated_at = results.finished_at,
  delivered_at = coalesce(results.delivered_at, webhook_deliveries.delivered_at)
from ${jsonRecordset(trx, results, 'results', {
      id: 'text',
      owner: 'text',
      outcome: 'text',
      attempt: 'integer',
      next_attempt_at: 'bigint',
      status: 'integer',
      duration_ms: 'integer',
      excerpt: 'text',
      error: 'text',
      finished_at: 'bigint',
      delivered_at: 'bigint',
    })}
where webhook_deliveries.id = results.id
  and webhook_deliveries.claimed_by = results.owner`.execute(trx);
  }
}

/**
 * Makes the endpoints' pending deliveries that wait for a later attempt due at `now`. Run in the transaction that
 * records a success showing an endpoint is back (recovery.ts), so what failed while it was down goes out at once
 * instead of after each delivery's backoff. The partial index on pending deliveries (`next_attempt_at`,
 * `endpoint_id`) serves it: it reads the pending deliveries due later, none while every endpoint answers.
 */
export async function bringDeliveriesForward(trx: Executor, endpointIds: readonly string[], now: number): Promise<number> {
  if (endpointIds.length === 0) return 0;
  const result = await trx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, updated_at: now })
    .where('status', '=', PENDING)
    .where('next_attempt_at', '>', now)
    .where('endpoint_id', 'in', [...endpointIds])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** An endpoint that is down, and when its earliest pending delivery is to be due at the latest. */
export interface Probe {
  readonly endpointId: string;
  readonly dueBy: number;
}

/**
 * Makes the endpoint's earliest pending delivery due by `dueBy` when it was due later (recovery.ts: a down
 * endpoint is probed however far each delivery's backoff has grown). One row at most; the partial index on
 * pending deliveries finds it.
 */
export async function keepProbeDue(trx: Executor, probe: Probe, now: number): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: probe.dueBy, updated_at: now })
    .where('next_attempt_at', '>', probe.dueBy)
    .where('id', '=', (eb) =>
      eb
        .selectFrom('webhook_deliveries as earliest')
        .select('earliest.id')
        .where('earliest.status', '=', PENDING)
        .where('earliest.endpoint_id', '=', probe.endpointId)
        .orderBy('earliest.next_attempt_at')
        .orderBy('earliest.id')
        .limit(1),
    )
    .execute();
}

/** Gives claimed deliveries back unattempted (graceful shutdown): due at once for any instance. */
export async function releaseClaims(write: Store['write'], ids: readonly string[], owner: string): Promise<void> {
  if (ids.length === 0) return;
  await write((trx) =>
    trx
      .updateTable('webhook_deliveries')
      .set({ claimed_until: null, claimed_by: null })
      .where('id', 'in', [...ids])
      .where('claimed_by', '=', owner)
      .execute(),
  );
}

/** Pending deliveries and when the oldest was created, for the backlog log line and the metrics gauges. */
export async function pendingBacklog(db: Executor): Promise<{ pending: number; oldestCreatedAt: number | null }> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min<number | null>('created_at').as('oldest')])
    .where('status', '=', PENDING)
    .executeTakeFirst();
  return { pending: Number(row?.pending ?? 0), oldestCreatedAt: row?.oldest == null ? null : Number(row.oldest) };
}
