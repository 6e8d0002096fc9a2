import type { ApiKeyActor } from '../../actor.js';
import { toIso, type Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/types.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { parseIsoDateTime } from '../activity/periods.js';
import { findStaffByGameUser } from '../staff/repository.js';
import {
  completeIfStale,
  completeShift,
  findActiveShiftOf,
  findOwnedShift,
  findVisibleShift,
  heartbeatPrediction,
  insertActiveShift,
  listLiveShifts,
  recordHeartbeat,
  type LiveShiftGuard,
  type ShiftOwner,
  type ShiftRow,
} from './repository.js';
import { assertNotBeforeStart, assertRecentStart, clientInstant, isStale, staleBefore } from './rules.js';
import type {
  ActiveShiftPage,
  ActiveShiftsQuery,
  HeartbeatBody,
  HeartbeatShift,
  ShiftDetail,
  StartShiftBody,
  StartShiftResult,
  StoppedShift,
  StopShiftBody,
} from './schemas.js';
import { activeView, detailView, startedView, stoppedView } from './views.js';

export const DEFAULT_ACTIVE_LIMIT = 50;
export const MAX_ACTIVE_LIMIT = 100;

/**
 * Heartbeat and stop on a shift that has timed out complete it and refuse (409). That completion must commit,
 * so the refusal is returned rather than thrown (a thrown error rolls the transaction back).
 */
export type ShiftOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

function shiftNotActive(): AppError {
  return new AppError('shift_not_active', 'The shift is not active (it was stopped or timed out).');
}

function heartbeatView(row: { readonly id: string; readonly last_heartbeat_at: number }): HeartbeatShift {
  return { id: row.id, status: 'active', lastHeartbeatAt: toIso(row.last_heartbeat_at) };
}

function shiftNotFound(): AppError {
  return notFound('The shift');
}

/** Numeric ids arrive as JSON numbers; they are kept as their decimal strings. */
function gameId(value: string | number): string {
  return typeof value === 'number' ? String(value) : value;
}

function ownerOf(actor: ApiKeyActor): ShiftOwner {
  return { applicationId: actor.application.id, environment: actor.environment };
}

function pageLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_ACTIVE_LIMIT;
  const value = Number(raw);
  if (!Number.isInteger(value)) {
    throw validationError([{ path: 'querystring.limit', message: 'must be an integer' }], '`limit` must be an integer.');
  }
  return Math.min(MAX_ACTIVE_LIMIT, Math.max(1, value));
}

function pageCursor(query: ActiveShiftsQuery): { startedAt: number; id: string } | null {
  const { cursorStartedAt, cursorId } = query;
  if (cursorStartedAt === undefined && cursorId === undefined) return null;
  if (cursorStartedAt === undefined || cursorId === undefined) {
    const missing = cursorStartedAt === undefined ? 'cursorStartedAt' : 'cursorId';
    throw validationError(
      [{ path: `querystring.${missing}`, message: 'is required with the other cursor parameter' }],
      '`cursorStartedAt` and `cursorId` must be sent together.',
    );
  }
  const startedAt = parseIsoDateTime(cursorStartedAt);
  if (startedAt === undefined) {
    throw validationError(
      [{ path: 'querystring.cursorStartedAt', message: 'must be an ISO 8601 date-time with an offset' }],
      '`cursorStartedAt` must be an ISO 8601 date-time with an offset.',
    );
  }
  return { startedAt, id: cursorId };
}

export interface ShiftServiceDeps {
  /** Used by the reads; the writes run on the transaction they are given. */
  readonly db: Executor;
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

export function createShiftService({ db, clock, config }: ShiftServiceDeps) {
  const cutoff = (now: number) => staleBefore(now, config.shiftTimeoutSeconds);

  /**
   * The caller's shift, found and still live: unknown -> 404, completed -> 409; a shift that timed out is
   * completed here and refused (returned, so the completion commits).
   */
  async function liveOwnedShift(trx: Executor, actor: ApiKeyActor, shiftId: string, now: number) {
    const shift = isUuid(shiftId) ? await findOwnedShift(trx, ownerOf(actor), shiftId) : undefined;
    if (!shift) throw shiftNotFound();
    if (shift.status !== 'active') throw shiftNotActive();
    if (isStale(shift, cutoff(now))) {
      await completeIfStale(trx, shift.id, cutoff(now));
      return { ok: false as const, error: shiftNotActive() };
    }
    return { ok: true as const, shift };
  }

  return {
    /** Starts a shift, or returns the staff member's active one for this application and environment. */
    async start(trx: Executor, actor: ApiKeyActor, body: StartShiftBody): Promise<StartShiftResult> {
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
        id: newId(),
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
        if (active && !isStale(active, cutoff(now))) return { shift: startedView(active), existing: true };
        if (active) await completeIfStale(trx, active.id, cutoff(now));
        if (await insertActiveShift(trx, row)) return { shift: startedView(row), existing: false };
      }
      // Only reachable if other requests keep ending the winner in between; a 5xx lets the client retry the key.
      throw new Error('start: the active shift kept changing under concurrent requests');
    },

    /**
     * The common heartbeat, predicted: the shift it answers with and one statement that records it, applying only
     * when that answer is exactly the outcome (src/http/idempotency.ts, Shortcut). Null when the request has to
     * take the full path: an id or instant the full path refuses (the refusal is then stored with the key).
     */
    predictHeartbeat(actor: ApiKeyActor, shiftId: string, body: HeartbeatBody) {
      if (!isUuid(shiftId)) return null;
      const now = clock.now();
      let recordedAt: number;
      try {
        recordedAt = clientInstant('recordedAt', body?.recordedAt, now);
      } catch {
        return null;
      }
      const serverId = body?.serverId;
      const owner = ownerOf(actor);
      const guard: LiveShiftGuard =
        serverId === undefined ? { owner, notBefore: recordedAt } : { owner, notBefore: recordedAt, serverId };
      const { effect, params } = heartbeatPrediction(shiftId, { recordedAt, seenAt: now, staleBefore: cutoff(now) }, guard);
      return { effect, params, shift: heartbeatView({ id: shiftId, last_heartbeat_at: recordedAt }) };
    },

    async heartbeat(
      trx: Executor,
      actor: ApiKeyActor,
      shiftId: string,
      body: HeartbeatBody,
    ): Promise<ShiftOutcome<HeartbeatShift>> {
      const now = clock.now();
      const recordedAt = clientInstant('recordedAt', body?.recordedAt, now);
      const heartbeat = { recordedAt, seenAt: now, staleBefore: cutoff(now) };
      // The common case in one statement: the caller's live shift, this server's, started by then. Only when
      // that changes nothing is the shift read to tell which rule refused it.
      if (isUuid(shiftId)) {
        const serverId = body?.serverId;
        const guard = { owner: ownerOf(actor), notBefore: recordedAt, ...(serverId !== undefined ? { serverId } : {}) };
        const updated = await recordHeartbeat(trx, shiftId, heartbeat, guard);
        if (updated) return { ok: true, value: heartbeatView(updated) };
      }
      const found = await liveOwnedShift(trx, actor, shiftId, now);
      if (!found.ok) return found;
      const { shift } = found;
      if (body?.serverId !== undefined && body.serverId !== shift.server_id) {
        throw new AppError('server_mismatch', 'serverId does not match the server that started this shift.');
      }
      assertNotBeforeStart('recordedAt', recordedAt, shift.started_at);
      const updated = await recordHeartbeat(trx, shift.id, heartbeat);
      if (!updated) throw shiftNotActive();
      return { ok: true, value: heartbeatView(updated) };
    },

    async stop(
      trx: Executor,
      actor: ApiKeyActor,
      shiftId: string,
      body: StopShiftBody,
    ): Promise<ShiftOutcome<StoppedShift>> {
      const now = clock.now();
      const endedAt = clientInstant('endedAt', body?.endedAt, now);
      const reason = body?.reason ?? 'manual';
      const end = { endedAt, reason, staleBefore: cutoff(now) };
      // As for heartbeats: one statement in the common case, the shift read only to explain a refusal.
      if (isUuid(shiftId)) {
        const stopped = await completeShift(trx, shiftId, end, { owner: ownerOf(actor), notBefore: endedAt });
        if (stopped) return { ok: true, value: stoppedView(stopped) };
      }
      const found = await liveOwnedShift(trx, actor, shiftId, now);
      if (!found.ok) return found;
      assertNotBeforeStart('endedAt', endedAt, found.shift.started_at);
      const stopped = await completeShift(trx, found.shift.id, end);
      if (!stopped) throw shiftNotActive();
      return { ok: true, value: stoppedView(stopped) };
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
        await completeIfStale(db, shift.id, cutoff(now));
        shift = await findVisibleShift(db, audience, shiftId);
      }
      if (!shift) throw shiftNotFound();
      return detailView(shift, now);
    },
  };
}

export type ShiftService = ReturnType<typeof createShiftService>;
