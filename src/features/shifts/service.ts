import type { Transaction } from 'kysely';
import type { ApiKeyActor } from '../../actor.ts';
import { toIso, type Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Store } from '../../db/store.ts';
import type { Database, Executor } from '../../db/types.ts';
import { AppError, notFound, validationError } from '../../errors.ts';
import { isUuid, newTimeOrderedId } from '../../ids.ts';
import type { Idempotency, IdempotentCall, IdempotentOutcome, OperationResult } from '../../idempotency/index.ts';
import type { KeyCredentialParams } from '../../keys/credential.ts';
import { findStaffByGameUser } from '../staff/profiles.ts';
import { fusedHeartbeat, heartbeatView } from './heartbeat.ts';
import { startShift, stopShift, timeOutShift } from './lifecycle.ts';
import { serverMismatch, shiftNotActive, shiftNotFound } from './refusals.ts';
import {
  findActiveShiftOf,
  findOwnedShift,
  findVisibleShift,
  listLiveShifts,
  recordHeartbeat,
  type ShiftOwner,
  type ShiftRow,
} from './repository.ts';
import { pageCursor } from './page-cursor.ts';
import { assertNotBeforeStart, assertRecentStart, clientInstant, isStale, staleBefore } from './rules.ts';
import type {
  ActiveShiftPage,
  ActiveShiftsQuery,
  HeartbeatBody,
  ShiftDetail,
  StartShiftBody,
  StopShiftBody,
} from './schemas.ts';
import { activeView, detailView, startedView, stoppedView } from './views.ts';

type Trx = Transaction<Database>;

export const DEFAULT_ACTIVE_LIMIT = 50;
export const MAX_ACTIVE_LIMIT = 100;


/** Numeric ids arrive as JSON numbers; they are kept as their decimal strings. */
function gameId(value: string | number): string {
  return typeof value === 'number' ? String(value) : value;
}

function ownerOf(actor: ApiKeyActor): ShiftOwner {
  return { applicationId: actor.application.id, environment: actor.environment };
}

function pageLimit(raw: number | undefined): number {
  if (raw === undefined) return DEFAULT_ACTIVE_LIMIT;
  const value = Number(raw);
  if (!Number.isInteger(value)) {
    throw validationError([{ path: 'querystring.limit', message: 'must be an integer' }], '`limit` must be an integer.');
  }
  return Math.min(MAX_ACTIVE_LIMIT, Math.max(1, value));
}

/** A write's request under its Idempotency-Key, and the caller's key when it was reused without a lookup. */
export interface ShiftWriteContext {
  readonly call: IdempotentCall;
  readonly reusedKey: ReusedKey | null;
}

/** A key reused without a lookup: the values its condition checks, and the lookup that confirms it otherwise. */
export interface ReusedKey {
  readonly credential: { readonly params: KeyCredentialParams };
  confirm(): Promise<ApiKeyActor>;
}

/** `{ data }` with 200: a write's success response, as stored with its key. */
function ok(data: unknown): OperationResult {
  return { status: 200, body: { data } };
}

export interface ShiftServiceDeps {
  /** Used by the reads; the writes run on the transaction they are given. */
  readonly db: Executor;
  /** The store's writer, for a read that completes a timed-out shift on the spot. */
  readonly write: Store['write'];
  readonly idempotency: Idempotency;
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

export function createShiftService({ db, write, idempotency, clock, config }: ShiftServiceDeps) {
  const cutoff = (now: number) => staleBefore(now, config.shiftTimeoutSeconds);

  /**
   * The caller's shift, found and still live: unknown -> 404, completed -> 409; a shift that timed out is
   * completed here and refused (returned, so the completion commits).
   */
  async function liveOwnedShift(trx: Trx, actor: ApiKeyActor, shiftId: string, now: number) {
    const shift = isUuid(shiftId) ? await findOwnedShift(trx, ownerOf(actor), shiftId) : undefined;
    if (!shift) throw shiftNotFound();
    if (shift.status !== 'active') throw shiftNotActive();
    if (isStale(shift, cutoff(now))) {
      await timeOutShift(trx, shift.id, cutoff(now), now);
      return { ok: false as const, result: { refusal: shiftNotActive() } };
    }
    return { ok: true as const, shift };
  }

  /** Starts a shift, or returns the staff member's active one for this application and environment. */
  async function startOperation(trx: Trx, actor: ApiKeyActor, body: StartShiftBody): Promise<OperationResult> {
    const now = clock.now();
    const startedAt = clientInstant('startedAt', body.startedAt, now);
    assertRecentStart(startedAt, now);
    const universeId = gameId(body.universeId);
    if (!actor.application.allowedUniverseIds.includes(universeId)) {
      throw new AppError('universe_not_allowed', `Universe ${universeId} is not allowed for this application.`);
    }
    const staff = await findStaffByGameUser(trx, actor.application.workspaceId, gameId(body.gameUserId));
    if (!staff) throw notFound('A staff member with this gameUserId');
    if (staff.status !== 'active') throw new AppError('staff_inactive', 'This staff member is inactive.');

    const owner = ownerOf(actor);
    const row: ShiftRow = {
      // Time-ordered: the shifts that are active (heartbeats, stops) are the newest, so their keys share a few
      // pages at one end of the primary-key index, instead of one random page each all over it.
      id: newTimeOrderedId(),
      workspace_id: actor.application.workspaceId,
      application_id: owner.applicationId,
      environment: owner.environment,
      staff_id: staff.id,
      universe_id: universeId,
      place_id: gameId(body.placeId),
      server_id: body.serverId,
      status: 'active',
      started_at: startedAt,
      last_heartbeat_at: startedAt,
      last_seen_at: now,
      ended_at: null,
      end_reason: null,
      created_at: now,
    };
    // A concurrent start may win the insert; a stale winner (possible only across a long pause) is retired too.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const active = await findActiveShiftOf(trx, owner, staff.id);
      if (active && !isStale(active, cutoff(now))) return ok({ shift: startedView(active), existing: true });
      if (active) await timeOutShift(trx, active.id, cutoff(now), now);
      if (await startShift(trx, row)) return ok({ shift: startedView(row), existing: false });
    }
    // Only reachable if other requests keep ending the winner in between; a 5xx lets the client retry the key.
    throw new Error('start: the active shift kept changing under concurrent requests');
  }

  async function heartbeatOperation(
    trx: Trx,
    actor: ApiKeyActor,
    shiftId: string,
    body: HeartbeatBody,
  ): Promise<OperationResult> {
    const now = clock.now();
    const recordedAt = clientInstant('recordedAt', body?.recordedAt, now);
    const heartbeat = { recordedAt, seenAt: now, staleBefore: cutoff(now) };
    // The common case in one statement: the caller's live shift, this server's, started by then. Only when
    // that changes nothing is the shift read to tell which rule refused it.
    if (isUuid(shiftId)) {
      const serverId = body?.serverId;
      const guard = { owner: ownerOf(actor), notBefore: recordedAt, ...(serverId !== undefined ? { serverId } : {}) };
      const updated = await recordHeartbeat(trx, shiftId, heartbeat, guard);
      if (updated) return ok({ shift: heartbeatView(updated) });
    }
    const found = await liveOwnedShift(trx, actor, shiftId, now);
    if (!found.ok) return found.result;
    const { shift } = found;
    if (body?.serverId !== undefined && body.serverId !== shift.server_id) {
      throw serverMismatch();
    }
    assertNotBeforeStart('recordedAt', recordedAt, shift.started_at);
    const updated = await recordHeartbeat(trx, shift.id, heartbeat);
    if (!updated) throw shiftNotActive();
    return ok({ shift: heartbeatView(updated) });
  }

  async function stopOperation(trx: Trx, actor: ApiKeyActor, shiftId: string, body: StopShiftBody): Promise<OperationResult> {
    const now = clock.now();
    const endedAt = clientInstant('endedAt', body?.endedAt, now);
    const reason = body?.reason ?? 'manual';
    const end = { endedAt, reason, staleBefore: cutoff(now) };
    // As for heartbeats: one statement in the common case, the shift read only to explain a refusal.
    if (isUuid(shiftId)) {
      const stopped = await stopShift(trx, shiftId, end, { owner: ownerOf(actor), notBefore: endedAt }, now);
      if (stopped) return ok({ shift: stoppedView(stopped) });
    }
    const found = await liveOwnedShift(trx, actor, shiftId, now);
    if (!found.ok) return found.result;
    assertNotBeforeStart('endedAt', endedAt, found.shift.started_at);
    const stopped = await stopShift(trx, found.shift.id, end, undefined, now);
    if (!stopped) throw shiftNotActive();
    return ok({ shift: stoppedView(stopped) });
  }

  return {
    /** Starts a shift (or answers with the active one) under the request's Idempotency-Key. */
    start(actor: ApiKeyActor, body: StartShiftBody, context: ShiftWriteContext): Promise<IdempotentOutcome> {
      return idempotency.run(context.call, (trx) => startOperation(trx, actor, body));
    },

    /**
     * Records a heartbeat under the request's Idempotency-Key. The common heartbeat is a fused write (one
     * statement with its stored result, which also confirms a reused key); any other, or one that statement
     * does not apply, runs the full operation (with a reused key confirmed by a lookup first).
     */
    async heartbeat(
      actor: ApiKeyActor,
      shiftId: string,
      body: HeartbeatBody,
      context: ShiftWriteContext,
    ): Promise<IdempotentOutcome> {
      const now = clock.now();
      const credential = context.reusedKey?.credential.params;
      const fused = fusedHeartbeat(actor, shiftId, body, now, cutoff(now), credential);
      if (fused) {
        const outcome = await idempotency.tryFused(context.call, fused);
        if (outcome) return outcome;
      }
      const confirmed = context.reusedKey ? await context.reusedKey.confirm() : actor;
      return idempotency.run(context.call, (trx) => heartbeatOperation(trx, confirmed, shiftId, body));
    },

    /** Stops a shift under the request's Idempotency-Key. */
    stop(actor: ApiKeyActor, shiftId: string, body: StopShiftBody, context: ShiftWriteContext): Promise<IdempotentOutcome> {
      return idempotency.run(context.call, (trx) => stopOperation(trx, actor, shiftId, body));
    },

    /** Live active shifts of the key's workspace and environment, by startedAt then id. */
    async listActive(actor: ApiKeyActor, query: ActiveShiftsQuery): Promise<ActiveShiftPage> {
      const limit = pageLimit(query.limit);
      const after = pageCursor(query);
      const now = clock.now();
      const audience = { workspaceId: actor.application.workspaceId, environment: actor.environment };
      const rows = await listLiveShifts(db, audience, { staleBefore: cutoff(now), after, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        shifts: page.map((row) => activeView(row, now)),
        nextCursor:
          rows.length > limit && last ? { cursorStartedAt: toIso(last.started_at), cursorId: last.id } : null,
      };
    },

    /** One shift of the key's workspace and environment, with the timeout rule applied first. */
    async get(actor: ApiKeyActor, shiftId: string): Promise<ShiftDetail> {
      if (!isUuid(shiftId)) throw shiftNotFound();
      const audience = { workspaceId: actor.application.workspaceId, environment: actor.environment };
      const now = clock.now();
      let shift = await findVisibleShift(db, audience, shiftId);
      if (shift && isStale(shift, cutoff(now))) {
        const staleId = shift.id;
        await write((trx) => timeOutShift(trx, staleId, cutoff(now), now));
        shift = await findVisibleShift(db, audience, shiftId);
      }
      if (!shift) throw shiftNotFound();
      return detailView(shift, now);
    },
  };
}

export type ShiftService = ReturnType<typeof createShiftService>;
