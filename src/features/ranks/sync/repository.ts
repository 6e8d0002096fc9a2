/**
 * The rank sync's queries: pending changes claimed under a lease, as the webhook outbox claims its deliveries
 * (`next_attempt_at`, `claimed_until`, `claimed_by`; on PostgreSQL `for update skip locked`), and each try's
 * outcome recorded only by the lease's holder. Only a staff member's earliest pending change is ever due: a
 * later one waits until it is applied or failed (docs/ROBLOX.md, "Sync").
 */
import { sql } from 'kysely';
import { inJsonList, rowsOf, skipLocked } from '../../../db/dialect.ts';
import type { Store } from '../../../db/store.ts';
import type { Executor } from '../../../db/types.ts';
import { takeCalls, type CallWindow } from './call-limit.ts';
import { roleCalls } from './open-cloud.ts';

/** A claimed change with what its calls need. The API key stays in memory for the calls; it is never logged. */
export interface ClaimedChange {
  readonly id: string;
  readonly workspaceId: string;
  readonly staffId: string;
  readonly gameUserId: string;
  readonly fromRoleId: string | null;
  readonly toRoleId: string | null;
  readonly attempts: number;
  readonly expiresAt: number;
  readonly groupId: string;
  readonly apiKey: string;
}

interface ClaimedRow {
  readonly id: string;
  readonly workspace_id: string;
  readonly staff_id: string;
  readonly game_user_id: string;
  readonly from_role_id: string | null;
  readonly to_role_id: string | null;
  readonly attempts: number;
  readonly expires_at: number;
  readonly group_id: string;
  readonly api_key: string | null;
}

/** SQL: a change (`c`) is pending, due and unclaimed at `now`, and its staff member has no earlier pending change. */
function dueChanges(now: number) {
  return sql<boolean>`c.sync_status = 'pending' and c.next_attempt_at <= ${now}
  and (c.claimed_until is null or c.claimed_until <= ${now})
  and not exists (select 1 from rank_changes as e where e.staff_id = c.staff_id and e.sync_status = 'pending' and e.id < c.id)`;
}

export interface ClaimOptions {
  readonly now: number;
  readonly limit: number;
  readonly leaseMs: number;
  readonly owner: string;
  /** The Open Cloud call limit per API key, shared by the instances (call-limit.ts). */
  readonly calls: CallWindow;
}

export interface Claimed {
  readonly changes: ClaimedChange[];
  /** Due changes left unclaimed because their key's window had no room: due again once it has. */
  readonly deferred: number;
}

/**
 * Claims up to `limit` due changes for `owner` until `now + leaseMs`, taking their Open Cloud calls from their
 * key's window in the same transaction (call-limit.ts). A change whose calls do not fit is not claimed: it is due
 * again when the window has room, untried (its attempts and last error stay). An idle table costs one indexed read.
 */
export async function claimDueChanges({ db, write }: Pick<Store, 'db' | 'write'>, options: ClaimOptions): Promise<Claimed> {
  const [due] = await rowsOf(db, sql<{ id: string }>`select c.id from rank_changes as c where ${dueChanges(options.now)} limit 1`);
  if (!due) return { changes: [], deferred: 0 };
  const { rows, deferred } = await write(async (trx) => {
    const candidates = await rowsOf(
      trx,
      sql<{ id: string }>`select c.id from rank_changes as c
where ${dueChanges(options.now)}
order by c.next_attempt_at, c.id
limit ${options.limit}${skipLocked(trx)}`,
    );
    if (candidates.length === 0) return { rows: [], deferred: new Map<string, number>() };
    const ids = candidates.map((row) => row.id);
    const found = await rowsOf(
      trx,
      sql<ClaimedRow>`select c.id, c.workspace_id, c.staff_id, s.game_user_id, c.from_role_id, c.to_role_id, c.attempts, c.expires_at,
  r.group_id, r.api_key
from rank_changes as c
join staff as s on s.id = c.staff_id
join roblox_settings as r on r.workspace_id = c.workspace_id
where ${inJsonList(trx, 'c.id', ids)}`,
    );
    // In the candidates' order: the order their calls are taken in.
    const order = new Map(ids.map((id, index) => [id, index]));
    found.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const requests = found.flatMap((row) =>
      row.api_key === null ? [] : [{ id: row.id, apiKey: row.api_key, calls: roleCalls(row.from_role_id, row.to_role_id).length }],
    );
    const later = await takeCalls(trx, requests, options.now, options.calls);
    const claimed = ids.filter((id) => !later.has(id));
    if (claimed.length > 0) {
      await sql`update rank_changes set claimed_until = ${options.now + options.leaseMs}, claimed_by = ${options.owner}
where ${inJsonList(trx, 'id', claimed)}`.execute(trx);
    }
    const waiting = new Map<number, string[]>();
    for (const [id, until] of later) waiting.set(until, [...(waiting.get(until) ?? []), id]);
    for (const [until, waitingIds] of waiting) {
      await sql`update rank_changes set next_attempt_at = ${until}, claimed_until = null, claimed_by = null
where ${inJsonList(trx, 'id', waitingIds)}`.execute(trx);
    }
    return { rows: found.filter((row) => !later.has(row.id)), deferred: later };
  });
  const changes = rows.flatMap((row) =>
    row.api_key === null
      ? []
      : [
          {
            id: row.id,
            workspaceId: row.workspace_id,
            staffId: row.staff_id,
            gameUserId: row.game_user_id,
            fromRoleId: row.from_role_id,
            toRoleId: row.to_role_id,
            attempts: Number(row.attempts),
            expiresAt: Number(row.expires_at),
            groupId: row.group_id,
            apiKey: row.api_key,
          },
        ],
  );
  return { changes, deferred: deferred.size };
}

/** What one try came to. */
export interface SyncOutcome {
  readonly id: string;
  readonly owner: string;
  /** `applied`, `failed`, or `pending` (retry at `nextAttemptAt`). */
  readonly status: 'applied' | 'failed' | 'pending';
  readonly attempts: number;
  readonly lastError: string | null;
  readonly at: number;
  readonly nextAttemptAt: number;
}

/**
 * Records a try's outcome, in the caller's transaction, when `owner` still holds the change's lease (a change
 * another instance took after a lapse, or one an erasure ended, is left alone). Returns whether it did.
 */
export async function recordSyncOutcome(trx: Executor, outcome: SyncOutcome): Promise<boolean> {
  const result = await trx
    .updateTable('rank_changes')
    .set({
      sync_status: outcome.status,
      attempts: outcome.attempts,
      last_error: outcome.status === 'applied' ? null : outcome.lastError,
      applied_at: outcome.status === 'applied' ? outcome.at : null,
      next_attempt_at: outcome.nextAttemptAt,
      claimed_until: null,
      claimed_by: null,
      updated_at: outcome.at,
    })
    .where('id', '=', outcome.id)
    .where('claimed_by', '=', outcome.owner)
    .where('sync_status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives claims back untried (stopping): due again at once, for any instance. */
export async function releaseChanges(write: Store['write'], ids: readonly string[], owner: string): Promise<void> {
  if (ids.length === 0) return;
  await write((trx) =>
    trx
      .updateTable('rank_changes')
      .set({ claimed_until: null, claimed_by: null })
      .where('id', 'in', [...ids])
      .where('claimed_by', '=', owner)
      .execute(),
  );
}

/** Pending and failed changes, for the metrics gauges. */
export async function syncBacklog(db: Executor): Promise<{ pending: number; failed: number }> {
  const rows = await db
    .selectFrom('rank_changes')
    .select((eb) => ['sync_status', eb.fn.countAll<number>().as('count')])
    .where('sync_status', 'in', ['pending', 'failed'])
    .groupBy('sync_status')
    .execute();
  const count = (status: string) => Number(rows.find((row) => row.sync_status === status)?.count ?? 0);
  return { pending: count('pending'), failed: count('failed') };
}

/** Ends the staff members' pending changes `failed` with `lastError` (an erasure), returning their ids. */
export async function failPendingChanges(trx: Executor, staffIds: readonly string[], lastError: string, now: number): Promise<string[]> {
  if (staffIds.length === 0) return [];
  const rows = await trx
    .updateTable('rank_changes')
    .set({ sync_status: 'failed', last_error: lastError, claimed_until: null, claimed_by: null, updated_at: now })
    .where('staff_id', 'in', [...staffIds])
    .where('sync_status', '=', 'pending')
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}
