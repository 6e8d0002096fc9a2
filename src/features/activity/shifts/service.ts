import { timeCursor } from '../../../shared/paging.ts';
import type { Transaction } from 'kysely';
import type { ApiKeyActor } from '../../../shared/actor.ts';
import { toIso, type Clock } from '../../../shared/clock.ts';
import type { Config } from '../../../shared/config.ts';
import { StatementGroup } from '../../../db/group-commit.ts';
import type { Store } from '../../../db/store.ts';
import type { Database } from '../../../db/types.ts';
import { AppError, notFound, RefusalAfterWrites, validationError } from '../../../shared/errors.ts';
import { isUuid, newTimeOrderedId } from '../../../shared/ids.ts';
import type { StoredResult } from '../../../idempotency/records.ts';
import type { KeyCredential } from '../../../shared/actor.ts';
import { findStaffByGameUser } from '../../staff/profiles.ts';
import { startShift, stopShift, timeOutShift } from './lifecycle.ts';
import { refusalError, shiftNotActive, shiftNotFound } from './refusals.ts';
import {
  findActiveShift,
  findOwnedShift,
  findVisibleShift,
  listLiveShifts,
  recordHeartbeat,
  type Heartbeat,
  type ShiftAudience,
  type ShiftOwner,
  type ShiftRow,
} from './repository.ts';
import {
  recordKnownHeartbeat,
  recordKnownHeartbeatsWithResults,
  recordKnownHeartbeatWithResult,
  type KnownHeartbeat,
  type KnownHeartbeatWrite,
} from './known-heartbeat.ts';
import { SHIFT_STATUS } from './status.ts';
import { assertRecentStart, clientInstant, isStale, refusalFor, staleBefore, type ShiftWrite } from './rules.ts';
import type {
  ActiveShiftPage,
  ActiveShiftsQuery,
  HeartbeatBody,
  HeartbeatShift,
  ShiftDetail,
  StartShiftBody,
  StartShiftResult,
  StopShiftBody,
  StoppedShift,
} from './schemas.ts';
import { activeView, detailView, heartbeatView, startedView, stoppedView } from './views.ts';

type Trx = Transaction<Database>;

const DEFAULT_ACTIVE_LIMIT = 50;
const MAX_ACTIVE_LIMIT = 100;

/** Numeric ids arrive as JSON numbers; they are kept as their decimal strings. */
function gameId(value: string | number): string {
  return typeof value === 'number' ? String(value) : value;
}

export function ownerOf(actor: ApiKeyActor): ShiftOwner {
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

/** A write's input on one shift: the shift's id as sent, and the body. */
export interface ShiftInput<Body> {
  readonly shiftId: string;
  readonly body: Body;
}

export interface ShiftServiceDeps {
  /** Reads run on its `db`; writes on the transaction they are given, or through its writer. */
  readonly store: Store;
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

/**
 * The shift operations. Each write is a plain operation, (transaction, actor, input) -> its answer's data, run by
 * the write pipeline of its route (src/http/write-pipeline.ts) in one transaction with its stored result.
 */
export function createShiftService({ store, clock, config }: ShiftServiceDeps) {
  const cutoff = (now: number) => staleBefore(now, config.shiftTimeoutSeconds);

  /**
   * The caller's shift that a heartbeat or stop its statement left alone, when no rule refuses the write (it
   * changed under a concurrent request meanwhile); otherwise the refusal, thrown, or returned for a shift that
   * timed out (completed here, so the completion commits).
   */
  async function unrefusedShift(
    trx: Trx,
    actor: ApiKeyActor,
    shiftId: string,
    write: ShiftWrite & { readonly field: 'recordedAt' | 'endedAt' },
    now: number,
  ): Promise<ShiftRow | RefusalAfterWrites> {
    const shift = isUuid(shiftId) ? await findOwnedShift(trx, ownerOf(actor), shiftId) : undefined;
    const refusal = refusalFor(shift, write);
    if (refusal === 'timed_out' && shift) {
      await timeOutShift(trx, shift.id, write.staleBefore, now);
      return new RefusalAfterWrites(shiftNotActive());
    }
    if (refusal !== null || !shift) throw refusalError(refusal ?? 'not_found', write.field);
    return shift;
  }

  /** Starts a shift, or returns the staff member's active one for this application and environment. */
  async function start(trx: Trx, actor: ApiKeyActor, body: StartShiftBody): Promise<StartShiftResult> {
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
      status: SHIFT_STATUS.active,
      started_at: startedAt,
      last_heartbeat_at: startedAt,
      last_seen_at: now,
      ended_at: null,
      end_reason: null,
      created_at: now,
    };
    // The insert first: it starts nothing while the staff member has an active shift (startShift), so the active
    // shift is read only when there is one. A concurrent start may win the insert; a stale winner (possible only
    // across a long pause) is retired too.
    for (let attempt = 1; ; attempt += 1) {
      if (await startShift(trx, row)) return { shift: startedView(row), existing: false };
      const active = await findActiveShift(trx, owner, staff.id);
      if (active && !isStale(active, cutoff(now))) return { shift: startedView(active), existing: true };
      // Only reachable if other requests keep ending the winner in between; a 5xx lets the client retry the key.
      if (attempt === 3) throw new Error('start: the active shift kept changing under concurrent requests');
      if (active) await timeOutShift(trx, active.id, cutoff(now), now);
    }
  }

  function heartbeatOf(actor: ApiKeyActor, body: HeartbeatBody, now: number): Heartbeat {
    const recordedAt = clientInstant('recordedAt', body?.recordedAt, now);
    const serverId = body?.serverId ?? null;
    return { recordedAt, seenAt: now, staleBefore: cutoff(now), owner: ownerOf(actor), serverId };
  }

  async function heartbeat(
    trx: Trx,
    actor: ApiKeyActor,
    { shiftId, body }: ShiftInput<HeartbeatBody>,
  ): Promise<{ shift: HeartbeatShift } | RefusalAfterWrites> {
    const now = clock.now();
    const beat = heartbeatOf(actor, body, now);
    // The common case in one statement; only when it changes nothing is the shift read to tell which rule refused it.
    if (isUuid(shiftId)) {
      const updated = await recordHeartbeat(trx, shiftId, beat);
      if (updated) return { shift: heartbeatView(updated) };
    }
    const write = { at: beat.recordedAt, serverId: beat.serverId, staleBefore: beat.staleBefore };
    const shift = await unrefusedShift(trx, actor, shiftId, { ...write, field: 'recordedAt' }, now);
    if (shift instanceof RefusalAfterWrites) return shift;
    const updated = await recordHeartbeat(trx, shift.id, beat);
    if (!updated) throw shiftNotActive();
    return { shift: heartbeatView(updated) };
  }

  async function stop(
    trx: Trx,
    actor: ApiKeyActor,
    { shiftId, body }: ShiftInput<StopShiftBody>,
  ): Promise<{ shift: StoppedShift } | RefusalAfterWrites> {
    const now = clock.now();
    const endedAt = clientInstant('endedAt', body?.endedAt, now);
    const ending = { endedAt, reason: body?.reason ?? 'manual', staleBefore: cutoff(now), owner: ownerOf(actor) };
    // As for heartbeats: one statement in the common case, the shift read only to explain a refusal.
    if (isUuid(shiftId)) {
      const stopped = await stopShift(trx, shiftId, ending, now);
      if (stopped) return { shift: stoppedView(stopped) };
    }
    const write = { at: endedAt, serverId: null, staleBefore: ending.staleBefore, field: 'endedAt' } as const;
    const shift = await unrefusedShift(trx, actor, shiftId, write, now);
    if (shift instanceof RefusalAfterWrites) return shift;
    const stopped = await stopShift(trx, shift.id, ending, now);
    if (!stopped) throw shiftNotActive();
    return { shift: stoppedView(stopped) };
  }

  /**
   * PostgreSQL: the known heartbeats that arrive while two statements of them are at the server go together in the
   * next (db/group-commit.ts, StatementGroup), at most 64; two of one shift or one key never share a statement.
   * While game servers send concurrently, a statement that would go short waits for company first, as the group
   * commit does (WAIT_FOR_COMPANY).
   */
  const knownHeartbeats = new StatementGroup<KnownHeartbeatWrite, boolean>({
    run: async (writes) =>
      writes.length === 1 && writes[0] !== undefined
        ? [await recordKnownHeartbeatWithResult(store.db, writes[0])]
        : recordKnownHeartbeatsWithResults(store.db, writes),
    conflicts: ({ known, result }) => [known.id, `${result.scope}\n${result.key}`],
    maxRunning: 2,
    maxItems: 64,
  });

  /**
   * The heartbeat whose answer is known before it runs: one on a uuid with a valid instant (else the full
   * operation refuses it), which records exactly `recordedAt` (docs/ARCHITECTURE.md, "A heartbeat"). Its
   * statement also checks the key's credential, and applies only while the key is free
   * (known-heartbeat.ts).
   */
  const knownHeartbeat = {
    change(actor: ApiKeyActor, { shiftId, body }: ShiftInput<HeartbeatBody>, credential: KeyCredential) {
      if (!isUuid(shiftId)) return null;
      const now = clock.now();
      let recordedAt: number;
      try {
        recordedAt = clientInstant('recordedAt', body?.recordedAt, now);
      } catch {
        return null;
      }
      const known: KnownHeartbeat = {
        id: shiftId,
        recordedAt,
        seenAt: now,
        staleBefore: cutoff(now),
        owner: ownerOf(actor),
        serverId: body?.serverId ?? null,
        credential,
      };
      return known;
    },
    data: (known: KnownHeartbeat) => ({ shift: heartbeatView({ id: known.id, last_heartbeat_at: known.recordedAt }) }),
    apply: recordKnownHeartbeat,
    applyWithResult: (known: KnownHeartbeat, result: StoredResult) => knownHeartbeats.submit({ known, result }),
  };

  return {
    start,
    heartbeat,
    knownHeartbeat,
    stop,

    /** Live active shifts of the key's workspace and environment, by startedAt then id. */
    /** Live shifts of one workspace and environment: an API key's own, or those a member's token names. */
    async listActive(audience: ShiftAudience, query: ActiveShiftsQuery): Promise<ActiveShiftPage> {
      const limit = pageLimit(query.limit);
      const after = timeCursor(query, 'cursorStartedAt');
      const now = clock.now();
      const rows = await listLiveShifts(store.db, audience, { staleBefore: cutoff(now), after, limit: limit + 1 });
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
      let shift = await findVisibleShift(store.db, audience, shiftId);
      if (shift && isStale(shift, cutoff(now))) {
        const staleId = shift.id;
        await store.write((trx) => timeOutShift(trx, staleId, cutoff(now), now));
        shift = await findVisibleShift(store.db, audience, shiftId);
      }
      if (!shift) throw shiftNotFound();
      return detailView(shift, now);
    },
  };
}

export type ShiftService = ReturnType<typeof createShiftService>;
