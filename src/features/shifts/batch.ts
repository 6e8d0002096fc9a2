/**
 * The game-server batch calls (CONTRACT 10): one heartbeat for many shifts of a server, and the stop of every
 * active shift of a server on shutdown. Each is one idempotent operation in one transaction, applying to every
 * shift exactly what the single call applies (the same named start/completion functions of lifecycle.ts).
 */
import type { Transaction } from 'kysely';
import type { ApiKeyActor } from '../../actor.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/types.ts';
import { validationError, type AppError } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import type { Idempotency, IdempotentOutcome, OperationResult } from '../../idempotency/index.ts';
import { findActiveShiftsOfServer, findOwnedShifts, recordHeartbeats } from './batch-repository.ts';
import type { HeartbeatBatchBody, HeartbeatBatchItem, ItemErrorCode, ServerStopBody } from './batch-schemas.ts';
import { heartbeatView } from './heartbeat.ts';
import { stopShift, timeOutShift } from './lifecycle.ts';
import { serverMismatch, shiftNotActive, shiftNotFound } from './refusals.ts';
import { recordHeartbeat, type ShiftOwner, type ShiftRow } from './repository.ts';
import { clientInstant, isStale, staleBefore } from './rules.ts';
import type { ShiftWriteContext } from './service.ts';
import { stoppedView } from './views.ts';

type Trx = Transaction<Database>;

export interface ShiftBatchDeps {
  readonly idempotency: Idempotency;
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

/** A shift id as the store keeps it (a uuid in lower case), or null for a text that names no shift. */
function canonicalShiftId(id: string): string | null {
  return isUuid(id) ? id.toLowerCase() : null;
}

/** Each refusal of one shift of a batch, worded as the single heartbeat words it. */
const REFUSALS: Readonly<Record<ItemErrorCode, () => AppError>> = {
  not_found: shiftNotFound,
  shift_not_active: shiftNotActive,
  server_mismatch: serverMismatch,
  validation_failed: () => validationError([], '`recordedAt` must not be before the shift\'s startedAt.'),
};

function itemError(shiftId: string, code: ItemErrorCode): HeartbeatBatchItem {
  return { shiftId, error: { code, message: REFUSALS[code]().message } };
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

export function createShiftBatchService({ idempotency, clock, config }: ShiftBatchDeps) {
  const cutoff = (now: number) => staleBefore(now, config.shiftTimeoutSeconds);
  const ownerOf = (actor: ApiKeyActor): ShiftOwner => ({
    applicationId: actor.application.id,
    environment: actor.environment,
  });

  /**
   * Why a shift the batch's statement left alone was refused, in the single heartbeat's order: unknown (404),
   * completed or timed out (completed here), another server, a `recordedAt` before its start. A shift that
   * passes them all changed under a concurrent request meanwhile: it gets the single heartbeat's statement.
   */
  async function explain(
    trx: Trx,
    sent: string,
    shift: ShiftRow | undefined,
    context: { readonly owner: ShiftOwner; readonly serverId: string; readonly recordedAt: number; readonly now: number },
  ): Promise<HeartbeatBatchItem> {
    if (!shift) return itemError(sent, 'not_found');
    if (shift.status !== 'active') return itemError(sent, 'shift_not_active');
    if (isStale(shift, cutoff(context.now))) {
      await timeOutShift(trx, shift.id, cutoff(context.now), context.now);
      return itemError(sent, 'shift_not_active');
    }
    if (shift.server_id !== context.serverId) return itemError(sent, 'server_mismatch');
    if (context.recordedAt < shift.started_at) {
      return itemError(sent, 'validation_failed');
    }
    const heartbeat = { recordedAt: context.recordedAt, seenAt: context.now, staleBefore: cutoff(context.now) };
    const guard = { owner: context.owner, notBefore: context.recordedAt, serverId: context.serverId };
    const updated = await recordHeartbeat(trx, shift.id, heartbeat, guard);
    return updated ? { shiftId: sent, shift: heartbeatView(updated) } : itemError(sent, 'shift_not_active');
  }

  async function heartbeatsOperation(trx: Trx, actor: ApiKeyActor, body: HeartbeatBatchBody): Promise<OperationResult> {
    const now = clock.now();
    const recordedAt = clientInstant('recordedAt', body.recordedAt, now);
    const ids = canonicalIds(body.shiftIds);
    const owner = ownerOf(actor);
    const listed = ids.filter((id): id is string => id !== null).sort();
    // The common case in one statement: every listed live shift of this server and owner, started by then.
    const heartbeat = { recordedAt, seenAt: now, staleBefore: cutoff(now) };
    const guard = { owner, notBefore: recordedAt, serverId: body.serverId };
    const recorded = new Map((await recordHeartbeats(trx, listed, heartbeat, guard)).map((row) => [row.id, row]));
    // Only the shifts it left alone are read, to tell which rule refused each.
    const leftAlone = listed.filter((id) => !recorded.has(id));
    const found = new Map((await findOwnedShifts(trx, owner, leftAlone)).map((row) => [row.id, row]));
    const explained = new Map<string, HeartbeatBatchItem>();
    const context = { owner, serverId: body.serverId, recordedAt, now };
    for (const id of leftAlone) explained.set(id, await explain(trx, id, found.get(id), context));

    const results = body.shiftIds.map((sent, index): HeartbeatBatchItem => {
      const id = ids[index];
      if (id === null || id === undefined) return itemError(sent, 'not_found');
      const row = recorded.get(id);
      if (row) return { shiftId: sent, shift: heartbeatView(row) };
      const item = explained.get(id) ?? itemError(sent, 'not_found');
      return { ...item, shiftId: sent };
    });
    return { status: 200, body: { data: { results } } };
  }

  async function stopServerOperation(
    trx: Trx,
    actor: ApiKeyActor,
    serverId: string,
    body: ServerStopBody,
  ): Promise<OperationResult> {
    const now = clock.now();
    const endedAt = clientInstant('endedAt', body?.endedAt, now);
    const reason = body?.reason ?? 'server_shutdown';
    const owner = ownerOf(actor);
    const stopped: ShiftRow[] = [];
    // Locked in id order as they are found, as the batch heartbeat locks its rows.
    for (const shift of await findActiveShiftsOfServer(trx, owner, serverId)) {
      if (isStale(shift, cutoff(now))) {
        await timeOutShift(trx, shift.id, cutoff(now), now); // it had already ended: not this call's to stop
        continue;
      }
      const end = Math.max(endedAt, shift.started_at);
      const row = await stopShift(trx, shift.id, { endedAt: end, reason, staleBefore: cutoff(now) }, { owner, notBefore: end }, now);
      if (row) stopped.push(row);
    }
    stopped.sort((a, b) => a.started_at - b.started_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { status: 200, body: { data: { shifts: stopped.map(stoppedView) } } };
  }

  return {
    /** One heartbeat for many shifts of a server, under the request's Idempotency-Key; a result per shift. */
    heartbeats(actor: ApiKeyActor, body: HeartbeatBatchBody, context: ShiftWriteContext): Promise<IdempotentOutcome> {
      return idempotency.run(context.call, (trx) => heartbeatsOperation(trx, actor, body));
    },

    /** Stops every active shift of a game server for the caller's application and environment. */
    stopServer(
      actor: ApiKeyActor,
      serverId: string,
      body: ServerStopBody,
      context: ShiftWriteContext,
    ): Promise<IdempotentOutcome> {
      return idempotency.run(context.call, (trx) => stopServerOperation(trx, actor, serverId, body));
    },
  };
}

export type ShiftBatchService = ReturnType<typeof createShiftBatchService>;
