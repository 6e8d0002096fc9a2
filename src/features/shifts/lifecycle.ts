/**
 * Where shifts start and complete. Every start and every completion, whichever request or job causes it, goes
 * through one of these functions, inside the transaction that commits it (start, stop, the timeout applied on
 * the spot by start, heartbeat, stop and get, and the timeout sweep). Work that must commit with the change
 * (running totals, an event for an outbox) belongs here, after the change and on the same `trx`, once for every
 * path: each function returns the rows it changed. Each records the webhook event of its change
 * (`activity.shift.started` / `activity.shift.ended`); `now` is the server-clock instant of the change (the
 * event's `createdAt`), taken from the caller's clock.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.ts';
import { recordCompletions } from './completion.ts';
import { recordShiftEvents } from './events.ts';
import {
  completeIfStale,
  completeShift,
  completeStaleShifts,
  insertActiveShift,
  type LiveShiftGuard,
  type ShiftRow,
} from './repository.ts';

type Trx = Transaction<Database>;

/** How a shift ends by its own stop: its instant and reason, and the liveness cutoff it must still meet. */
export interface ShiftEnd {
  readonly endedAt: number;
  readonly reason: string;
  readonly staleBefore: number;
}

/**
 * Starts `row` unless its staff member already has an active shift for the application and environment (one
 * winner across instances: a partial unique index); true if it started.
 */
export async function startShift(trx: Trx, row: ShiftRow): Promise<boolean> {
  const started = await insertActiveShift(trx, row);
  // The row's created_at is the server's instant of the start.
  if (started) await recordShiftEvents(trx, 'activity.shift.started', [row], row.created_at);
  return started;
}

/**
 * Completes a live shift with its own end (a stop); undefined when it is no longer active, has gone stale, or
 * `guard` does not hold. The completion is added to the activity totals, which also invalidates the workspace's
 * rankings (its end changes what they rank).
 */
export async function stopShift(
  trx: Trx,
  id: string,
  end: ShiftEnd,
  guard: LiveShiftGuard | undefined,
  now: number,
): Promise<ShiftRow | undefined> {
  const stopped = await completeShift(trx, id, end, guard);
  if (stopped) await ended(trx, [stopped], now);
  return stopped;
}

/**
 * Completes one shift that has timed out (`heartbeat_timeout`, ending at its last heartbeat); its row if this
 * call completed it. The completion moves the shift from the raw reads (a timed-out shift already counts, ending
 * at its last heartbeat) into the activity totals.
 */
export async function timeOutShift(
  trx: Trx,
  id: string,
  staleBefore: number,
  now: number,
): Promise<ShiftRow | undefined> {
  const completed = await completeIfStale(trx, id, staleBefore);
  if (completed) await ended(trx, [completed], now);
  return completed;
}

/** The sweep's share of `timeOutShift`: up to `limit` timed-out shifts, completed in one statement; their rows. */
export async function timeOutShifts(
  trx: Trx,
  staleBefore: number,
  limit: number,
  now: number,
): Promise<ShiftRow[]> {
  const completed = await completeStaleShifts(trx, staleBefore, limit);
  await ended(trx, completed, now);
  return completed;
}

/**
 * What every completion commits with it, whichever way the shift ended: its time in the activity totals and an
 * `activity.shift.ended` event (created at `now`, the server's instant of the change) in the webhook outbox.
 */
async function ended(trx: Trx, rows: readonly ShiftRow[], now: number): Promise<void> {
  await recordCompletions(trx, rows);
  await recordShiftEvents(trx, 'activity.shift.ended', rows, now);
}
