/**
 * The game-server batch calls: one heartbeat for many shifts of a server, and the stop of every active shift of a
 * server on shutdown. Each is one idempotent operation in one transaction, applying to every shift exactly what
 * the single call applies: the same statements, the same refusals in the same order (refusals.ts), and the same
 * completions (lifecycle.ts).
 */
import type { Transaction } from 'kysely';
import type { ApiKeyActor } from '../../../shared/actor.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { Config } from '../../../shared/config.ts';
import type { Database } from '../../../db/types.ts';
import { validationError } from '../../../shared/errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import type { HeartbeatBatchBody, HeartbeatBatchItem, ItemErrorCode, ServerStopBody } from './batch-schemas.ts';
import { stopShift, timeOutShift } from './lifecycle.ts';
import { refusalError } from './refusals.ts';
import {
  findActiveShiftsOfServer,
  findOwnedShifts,
  lockShifts,
  recordHeartbeat,
  recordHeartbeats,
  type Heartbeat,
  type ShiftRow,
} from './repository.ts';
import { clientInstant, isStale, refusalFor, staleBefore, type ShiftRefusal } from './rules.ts';
import { ownerOf } from './service.ts';
import type { StoppedShift } from './schemas.ts';
import { heartbeatView, stoppedView } from './views.ts';
import { compareText } from '../../../shared/text.ts';

type Trx = Transaction<Database>;

export interface ShiftBatchDeps {
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

/** A shift id as the store keeps it (a uuid in lower case), or null for a text that names no shift. */
function canonicalShiftId(id: string): string | null {
  return isUuid(id) ? id.toLowerCase() : null;
}

/** The code a refusal of one shift of a batch has; its message is the single heartbeat's. */
const ITEM_CODES: Readonly<Record<ShiftRefusal, ItemErrorCode>> = {
  not_found: 'not_found',
  shift_not_active: 'shift_not_active',
  timed_out: 'shift_not_active',
  server_mismatch: 'server_mismatch',
  before_start: 'validation_failed',
};

function itemError(shiftId: string, refusal: ShiftRefusal): HeartbeatBatchItem {
  return { shiftId, error: { code: ITEM_CODES[refusal], message: refusalError(refusal, 'recordedAt').message } };
}

/** Sent ids with their canonical form; two spellings of one uuid are a duplicate (400, nothing written). */
function canonicalIds(shiftIds: readonly string[]): (string | null)[] {
  const seen = new Set<string>();
  return shiftIds.map((sent, index) => {
    const id = canonicalShiftId(sent);
    if (id !== null) {
      if (seen.has(id)) {
        throw validationError(
          [{ path: `body.shiftIds.${index}`, message: 'names a shift listed earlier in the batch' }],
          '`shiftIds` must name each shift once.',
        );
      }
      seen.add(id);
    }
    return id;
  });
}

export function createShiftBatchService({ clock, config }: ShiftBatchDeps) {
  const cutoff = (now: number) => staleBefore(now, config.shiftTimeoutSeconds);

  /**
   * Why a shift the batch's statement left alone was refused (refusals.ts; a timed-out one is completed here). A
   * shift that no rule refuses changed under a concurrent request meanwhile: it gets the single heartbeat's
   * statement.
   */
  async function explain(
    trx: Trx,
    sent: string,
    shift: ShiftRow | undefined,
    heartbeat: Heartbeat,
  ): Promise<HeartbeatBatchItem> {
    const { recordedAt, serverId, staleBefore } = heartbeat;
    const refusal = refusalFor(shift, { at: recordedAt, serverId, staleBefore });
    if (refusal === 'timed_out' && shift) await timeOutShift(trx, shift.id, staleBefore, heartbeat.seenAt);
    if (refusal !== null || !shift) return itemError(sent, refusal ?? 'not_found');
    const updated = await recordHeartbeat(trx, shift.id, heartbeat);
    return updated ? { shiftId: sent, shift: heartbeatView(updated) } : itemError(sent, 'shift_not_active');
  }

  /** One heartbeat for many shifts of a server; a result per shift. */
  async function heartbeats(trx: Trx, actor: ApiKeyActor, body: HeartbeatBatchBody): Promise<{ results: HeartbeatBatchItem[] }> {
    const now = clock.now();
    const recordedAt = clientInstant('recordedAt', body.recordedAt, now);
    const ids = canonicalIds(body.shiftIds);
    const owner = ownerOf(actor);
    const listed = ids.filter((id): id is string => id !== null).sort();
    // The common case in one statement: every listed live shift of this server and owner, started by then. The
    // statement locks every listed row first, in id order, as every writer of several shifts locks them
    // (repository.ts, lockShifts), so the shifts it leaves alone are locked too before they are explained.
    const heartbeat = { recordedAt, seenAt: now, staleBefore: cutoff(now), owner, serverId: body.serverId };
    const recorded = new Map((await recordHeartbeats(trx, listed, heartbeat)).map((row) => [row.id, row]));
    // Only the shifts it left alone are read, to tell which rule refused each.
    const leftAlone = listed.filter((id) => !recorded.has(id));
    const found = new Map((await findOwnedShifts(trx, owner, leftAlone)).map((row) => [row.id, row]));
    const explained = new Map<string, HeartbeatBatchItem>();
    for (const id of leftAlone) explained.set(id, await explain(trx, id, found.get(id), heartbeat));

    const results = body.shiftIds.map((sent, index): HeartbeatBatchItem => {
      const id = ids[index];
      if (id === null || id === undefined) return itemError(sent, 'not_found');
      const row = recorded.get(id);
      if (row) return { shiftId: sent, shift: heartbeatView(row) };
      const item = explained.get(id) ?? itemError(sent, 'not_found');
      return { ...item, shiftId: sent };
    });
    return { results };
  }

  /** Stops every active shift of a game server for the caller's application and environment. */
  async function stopServer(
    trx: Trx,
    actor: ApiKeyActor,
    { serverId, body }: { readonly serverId: string; readonly body: ServerStopBody },
  ): Promise<{ shifts: StoppedShift[] }> {
    const now = clock.now();
    const endedAt = clientInstant('endedAt', body?.endedAt, now);
    const reason = body?.reason ?? 'server_shutdown';
    const owner = ownerOf(actor);
    const stopped: ShiftRow[] = [];
    const found = await findActiveShiftsOfServer(trx, owner, serverId);
    // Locked in id order before any is changed, as the batch heartbeat locks its rows (repository.ts, lockShifts).
    await lockShifts(trx, found.map((shift) => shift.id));
    for (const shift of found) {
      if (isStale(shift, cutoff(now))) {
        await timeOutShift(trx, shift.id, cutoff(now), now); // it had already ended: not this call's to stop
        continue;
      }
      const end = Math.max(endedAt, shift.started_at);
      const row = await stopShift(trx, shift.id, { endedAt: end, reason, staleBefore: cutoff(now), owner }, now);
      if (row) stopped.push(row);
    }
    stopped.sort((a, b) => a.started_at - b.started_at || compareText(a.id, b.id));
    return { shifts: stopped.map(stoppedView) };
  }

  return { heartbeats, stopServer };
}

export type ShiftBatchService = ReturnType<typeof createShiftBatchService>;
