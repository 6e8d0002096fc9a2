/**
 * Where shifts start and complete. The statements that start or complete a shift are in this module and nowhere
 * else, so every start and every completion, whichever request or job causes it (start, stop, the server stop,
 * the timeout applied on the spot by start, heartbeat, stop and get, and the timeout sweep), goes through one of
 * these functions, inside the transaction that commits it. What must commit with the change (the running totals,
 * the webhook events `activity.shift.started` / `activity.shift.ended`) is recorded here, on the same `trx`, once
 * for every path; `now` is the server-clock instant of the change (the event's `createdAt`).
 */
import { sql, type Transaction } from 'kysely';
import { rowsOf } from '../../../db/dialect.ts';
import type { Database } from '../../../db/types.ts';
import { applyCompletedShifts } from '../totals/service.ts';
import { recordShiftEvents } from './events.ts';
import { lockShifts, type ShiftOwner, type ShiftRow } from './repository.ts';
import { liveShift, timedOutShift } from './rules.ts';
import { COMPLETED } from './status.ts';

type Trx = Transaction<Database>;

/** A shift's own end (a stop): its instant and reason, the liveness cutoff, and whose shift it may end. */
export interface ShiftStop {
  readonly endedAt: number;
  readonly reason: string;
  readonly staleBefore: number;
  readonly owner: ShiftOwner;
}

/**
 * Starts `row` unless its staff member already has an active shift for the application and environment (one
 * winner across instances: the partial unique index `shifts_one_active`); true if it started.
 */
export async function startShift(trx: Trx, row: ShiftRow): Promise<boolean> {
  // The literal 'active' (never a value) lets `on conflict … where status = 'active'` match the partial unique index.
  const started = await rowsOf(
    trx,
    sql<{ id: string }>`insert into shifts
  (id, workspace_id, application_id, environment, staff_id, universe_id, place_id, server_id, status,
   started_at, last_heartbeat_at, last_seen_at, ended_at, end_reason, created_at)
values (${row.id}, ${row.workspace_id}, ${row.application_id}, ${row.environment}, ${row.staff_id}, ${row.universe_id},
  ${row.place_id}, ${row.server_id}, 'active', ${row.started_at}, ${row.last_heartbeat_at}, ${row.last_seen_at}, null, null,
  ${row.created_at})
on conflict (application_id, environment, staff_id) where status = 'active' do nothing
returning id`,
  );
  if (started.length === 0) return false;
  // The row's created_at is the server's instant of the start.
  await recordShiftEvents(trx, 'activity.shift.started', [row], row.created_at);
  return true;
}

/**
 * Completes the owner's live shift with its own end (a stop), when it started by `endedAt`; undefined when it is
 * no longer active, has gone stale, or is not the owner's or started later.
 */
export async function stopShift(trx: Trx, id: string, stop: ShiftStop, now: number): Promise<ShiftRow | undefined> {
  const [stopped] = await complete(
    trx,
    () =>
      rowsOf(
        trx,
        sql<ShiftRow>`update shifts
set status = 'completed', ended_at = ${stop.endedAt}, end_reason = ${stop.reason}
where id = ${id}
  and ${liveShift(stop.staleBefore, 'by id')}
  and application_id = ${stop.owner.applicationId} and environment = ${stop.owner.environment} and started_at <= ${stop.endedAt}
returning *`,
      ),
    now,
  );
  return stopped;
}

/** Completes shifts as of their last heartbeat (the timeout rule); the caller says which. */
function completeTimedOut(trx: Trx) {
  return trx
    .updateTable('shifts')
    .set((eb) => ({ status: COMPLETED, ended_at: eb.ref('last_heartbeat_at'), end_reason: 'heartbeat_timeout' }));
}

/**
 * Completes one shift that has timed out (`heartbeat_timeout`, ending at its last heartbeat, when nothing was
 * received since `staleBefore`); its row if this call completed it. The completion moves the shift from the raw
 * reads (a timed-out shift already counts, ending at its last heartbeat) into the activity totals.
 */
export async function timeOutShift(
  trx: Trx,
  id: string,
  staleBefore: number,
  now: number,
): Promise<ShiftRow | undefined> {
  const [completed] = await complete(
    trx,
    () =>
      completeTimedOut(trx)
        .where('id', '=', id)
        .where(timedOutShift(staleBefore, 'by id'))
        .returningAll()
        .execute(),
    now,
  );
  return completed;
}

/**
 * The sweep's share of `timeOutShift`: up to `limit` timed-out shifts, locked in id order (lockShifts) and then
 * completed in one statement that checks each again, so concurrent sweeps never complete a shift twice.
 */
export async function timeOutShifts(trx: Trx, staleBefore: number, limit: number, now: number): Promise<ShiftRow[]> {
  const due = await trx
    .selectFrom('shifts')
    .select('id')
    .where(timedOutShift(staleBefore, 'scan'))
    // No ORDER BY: ordering by id makes the planner walk the primary key over every shift (seconds on a large
    // table) instead of reading the few active ones through their index.
    .limit(limit)
    .execute();
  const ids = due.map((row) => row.id);
  if (ids.length === 0) return [];
  await lockShifts(trx, ids);
  return complete(
    trx,
    () =>
      completeTimedOut(trx)
        .where('id', 'in', ids)
        .where(timedOutShift(staleBefore, 'scan'))
        .returningAll()
        .execute(),
    now,
  );
}

/**
 * Every completion, whichever way the shift ended: `completing` changes the shifts' rows (and so locks them), then
 * their time is added to the activity totals, which locks their workspaces' rows and moves their activity version
 * (invalidating their cached rankings, src/features/workspaces/rankings.ts), and an `activity.shift.ended` event
 * is recorded. Shift rows before workspace rows, here for every completion: concurrent completions wait for each
 * other instead of deadlocking.
 */
async function complete(trx: Trx, completing: () => Promise<ShiftRow[]>, now: number): Promise<ShiftRow[]> {
  const rows = await completing();
  if (rows.length === 0) return rows;
  await applyCompletedShifts(
    trx,
    rows.map((row) => ({
      workspace_id: row.workspace_id,
      environment: row.environment,
      staff_id: row.staff_id,
      started_at: row.started_at,
      ended_at: row.ended_at ?? row.last_heartbeat_at,
    })),
  );
  await recordShiftEvents(trx, 'activity.shift.ended', rows, now);
  return rows;
}
