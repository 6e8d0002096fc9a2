import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { prepared, type Param } from '../../db/prepared.ts';
import { idAmongLockedInOrder } from '../../db/row-locks.ts';
import type { Database, Executor, ShiftTable } from '../../db/types.ts';

export type ShiftRow = Selectable<ShiftTable>;

/** A shift with the staff fields the read endpoints show. */
export interface ShiftWithStaff extends ShiftRow {
  readonly staff_display_name: string;
  readonly staff_game_user_id: string;
}

/** Which application and environment a write acts for. */
export interface ShiftOwner {
  readonly applicationId: string;
  readonly environment: string;
}

/** Which workspace and environment a read sees. */
export interface ShiftAudience {
  readonly workspaceId: string;
  readonly environment: string;
}

export interface ActiveShiftsCursor {
  readonly startedAt: number;
  readonly id: string;
}

// The literal (not a bound parameter) lets both stores match the predicate of the partial index shifts_one_active.
export const ACTIVE = sql.lit('active');

/**
 * "Active, and last seen at or after `staleBefore`", for a statement that finds its shift by id, written as one
 * expression on purpose: with the bare `status = 'active'`, PostgreSQL's planner may read the shift through a
 * partial index of active shifts (whose predicate that condition proves) instead of the primary key, scanning
 * every active shift. It does so whenever its statistics undercount active shifts, which they usually do: they
 * are a sliver of the table. That cost about 1 ms per heartbeat with 2,000 active shifts. (The sweep and the
 * lists, which do read many active shifts, keep the indexable form.)
 */
export function liveSince(eb: ExpressionBuilder<Database, 'shifts'>, staleBefore: number): Expression<SqlBool> {
  return eb(activeLastSeen(eb), '>=', staleBefore);
}

/** The same for "active, and timed out" (see liveSince). */
function staleBy(eb: ExpressionBuilder<Database, 'shifts'>, staleBefore: number): Expression<SqlBool> {
  return eb(activeLastSeen(eb), '<', staleBefore);
}

/** `last_seen_at` of an active shift; null for a completed one. */
function activeLastSeen(eb: ExpressionBuilder<Database, 'shifts'>) {
  return eb.case().when('status', '=', ACTIVE).then(eb.ref('last_seen_at')).end();
}

// Read by start, heartbeat and stop: built once (src/db/prepared.ts).
const selectOwnedShift = prepared<{ id: string; applicationId: string; environment: string }, ShiftRow>((db, p) =>
  db
    .selectFrom('shifts')
    .selectAll()
    .where('id', '=', p('id'))
    .where('application_id', '=', p('applicationId'))
    .where('environment', '=', p('environment')),
);

const selectActiveShiftOf = prepared<{ applicationId: string; environment: string; staffId: string }, ShiftRow>(
  (db, p) =>
    db
      .selectFrom('shifts')
      .selectAll()
      .where('application_id', '=', p('applicationId'))
      .where('environment', '=', p('environment'))
      .where('staff_id', '=', p('staffId'))
      .where('status', '=', ACTIVE),
);

export async function findOwnedShift(db: Executor, owner: ShiftOwner, id: string): Promise<ShiftRow | undefined> {
  return selectOwnedShift.first(db, { id, applicationId: owner.applicationId, environment: owner.environment });
}

export async function findActiveShiftOf(
  db: Executor,
  owner: ShiftOwner,
  staffId: string,
): Promise<ShiftRow | undefined> {
  return selectActiveShiftOf.first(db, { applicationId: owner.applicationId, environment: owner.environment, staffId });
}

/** Inserts an active shift unless the staff member already has one (one winner across instances); true if inserted. */
export async function insertActiveShift(db: Executor, row: ShiftRow): Promise<boolean> {
  const result = await db
    .insertInto('shifts')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['application_id', 'environment', 'staff_id']).where('status', '=', ACTIVE).doNothing(),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Completes shifts as of their last heartbeat (the timeout rule); the caller says which. */
function completeTimedOut(db: Executor) {
  return db
    .updateTable('shifts')
    .set((eb) => ({ status: 'completed', ended_at: eb.ref('last_heartbeat_at'), end_reason: 'heartbeat_timeout' }));
}

/** Applies the timeout rule to one shift; its completed row if this call completed it. */
export async function completeIfStale(db: Executor, id: string, staleBefore: number): Promise<ShiftRow | undefined> {
  return completeTimedOut(db)
    .where('id', '=', id)
    .where((eb) => staleBy(eb, staleBefore))
    .returningAll()
    .executeTakeFirst();
}

/**
 * One chunk of the timeout sweep: up to `limit` active shifts last seen before `staleBefore`, completed in one
 * conditional statement. It locks them in id order first, as the server stop and the batch heartbeat lock theirs
 * (so none of them deadlocks with another), and re-checks each row, so concurrent sweeps never complete a shift
 * twice. Returns the rows it completed.
 */
export async function completeStaleShifts(db: Executor, staleBefore: number, limit: number): Promise<ShiftRow[]> {
  const due = await db
    .selectFrom('shifts')
    .select('id')
    .where('status', '=', ACTIVE)
    .where('last_seen_at', '<', staleBefore)
    // No ORDER BY: ordering by id makes the planner walk the primary key over every shift (seconds on a large
    // table) instead of reading the few active ones through their index.
    .limit(limit)
    .execute();
  const ids = due.map((row) => row.id);
  if (ids.length === 0) return [];
  return completeTimedOut(db)
    .where(idAmongLockedInOrder(db, 'shifts', ids))
    .where('status', '=', ACTIVE)
    .where('last_seen_at', '<', staleBefore)
    .returningAll()
    .execute();
}

/** What a heartbeat or stop may only change: the caller's own live shift, at an instant not before its start. */
export interface LiveShiftGuard {
  readonly owner: ShiftOwner;
  /** The heartbeat's or stop's instant; a shift started after it is left alone. */
  readonly notBefore: number;
  /** The heartbeat's `serverId`, when sent; a shift of another server is left alone. */
  readonly serverId?: string;
}

/**
 * Records a heartbeat on a live shift: `last_heartbeat_at` only moves forward (decided in the statement, so
 * racing heartbeats cannot move it back). Undefined when the shift is no longer active or has gone stale, or
 * when `guard` does not hold (the caller then finds out why).
 */
export async function recordHeartbeat(
  db: Executor,
  id: string,
  heartbeat: HeartbeatValues,
  guard?: LiveShiftGuard,
): Promise<Pick<ShiftRow, 'id' | 'last_heartbeat_at'> | undefined> {
  const params = { id, ...heartbeat };
  if (!guard) return heartbeatUnguarded.first(db, params);
  const { serverId, ...values } = guardValues(guard);
  if (serverId === undefined) return heartbeatGuarded.first(db, { ...params, ...values });
  return heartbeatGuardedForServer.first(db, { ...params, ...values, serverId });
}

/** A heartbeat's instants: recorded (game server), seen (server clock), and the liveness cutoff. */
export type HeartbeatValues = {
  readonly recordedAt: number;
  readonly seenAt: number;
  readonly staleBefore: number;
};
type HeartbeatParams = HeartbeatValues & { readonly id: string };
type GuardedHeartbeatParams = HeartbeatParams & {
  readonly applicationId: string;
  readonly environment: string;
  readonly notBefore: number;
};
type HeartbeatRow = Pick<ShiftRow, 'id' | 'last_heartbeat_at'>;

function heartbeatUpdate<P extends HeartbeatParams>(db: Kysely<Database>, p: Param<P>) {
  return db
    .updateTable('shifts')
    .set((eb) => ({
      last_heartbeat_at: eb
        .case()
        .when('last_heartbeat_at', '<', p('recordedAt'))
        .then(p('recordedAt'))
        .else(eb.ref('last_heartbeat_at'))
        .end(),
      last_seen_at: p('seenAt'),
    }))
    .where('id', '=', p('id'))
    .where((eb) => liveSince(eb, p('staleBefore')));
}

// The heartbeat runs on every game server every few seconds: its statements are built once (src/db/prepared.ts).
const heartbeatUnguarded = prepared<HeartbeatParams, HeartbeatRow>((db, p) =>
  heartbeatUpdate(db, p).returning(['id', 'last_heartbeat_at']),
);

const heartbeatGuarded = prepared<GuardedHeartbeatParams, HeartbeatRow>((db, p) =>
  heartbeatUpdate(db, p)
    .where((eb) =>
      guardHolds(eb, { applicationId: p('applicationId'), environment: p('environment'), notBefore: p('notBefore') }),
    )
    .returning(['id', 'last_heartbeat_at']),
);

const heartbeatGuardedForServer = prepared<GuardedHeartbeatParams & { readonly serverId: string }, HeartbeatRow>(
  (db, p) =>
    heartbeatUpdate(db, p)
      .where((eb) =>
        guardHolds(eb, {
          applicationId: p('applicationId'),
          environment: p('environment'),
          notBefore: p('notBefore'),
          serverId: p('serverId'),
        }),
      )
      .returning(['id', 'last_heartbeat_at']),
);

/** What a predicted heartbeat binds (see predictedHeartbeat). */
export type PredictedHeartbeatParams = GuardedHeartbeatParams & { readonly serverId?: string };

/**
 * A heartbeat whose outcome is known in advance (the effect of the fused heartbeat, see heartbeat.ts): it moves
 * `last_heartbeat_at` to exactly `recordedAt`, so it applies only when no later heartbeat is recorded yet (else
 * it changes nothing and the full operation runs). `keyFree` is the idempotency layer's condition on the key.
 * Returns the shift's id when applied. `withServer`: the heartbeat names its server, which must be the shift's.
 */
export function predictedHeartbeat(withServer: boolean) {
  return (db: Kysely<Database>, p: Param<PredictedHeartbeatParams>, keyFree: Expression<SqlBool>) => {
    const guard: GuardValues = {
      applicationId: p('applicationId'),
      environment: p('environment'),
      notBefore: p('notBefore'),
      ...(withServer ? { serverId: p('serverId') } : {}),
    };
    return db
      .updateTable('shifts')
      .set({ last_heartbeat_at: p('recordedAt'), last_seen_at: p('seenAt') })
      .where('id', '=', p('id'))
      .where((eb) => liveSince(eb, p('staleBefore')))
      .where('last_heartbeat_at', '<=', p('recordedAt'))
      .where((eb) => guardHolds(eb, guard))
      .where(keyFree)
      .returning('id');
  };
}

/** A guard's values, given directly or as a prepared query's placeholders. */
interface GuardValues {
  readonly applicationId: string;
  readonly environment: string;
  readonly notBefore: number;
  readonly serverId?: string;
}

export function guardValues(guard: LiveShiftGuard): GuardValues {
  return {
    applicationId: guard.owner.applicationId,
    environment: guard.owner.environment,
    notBefore: guard.notBefore,
    serverId: guard.serverId, // bound only by the statement for a heartbeat that names its server
  };
}

/** The guard as one predicate on the shift row (heartbeat and stop share it). */
export function guardHolds(eb: ExpressionBuilder<Database, 'shifts'>, guard: GuardValues) {
  const conditions = [
    eb('application_id', '=', guard.applicationId),
    eb('environment', '=', guard.environment),
    eb('started_at', '<=', guard.notBefore),
  ];
  if (guard.serverId !== undefined) conditions.push(eb('server_id', '=', guard.serverId));
  return eb.and(conditions);
}

/**
 * Completes a live shift with its own end; undefined when it is no longer active or has gone stale, or `guard`
 * does not hold (race-safe).
 */
export async function completeShift(
  db: Executor,
  id: string,
  end: { readonly endedAt: number; readonly reason: string; readonly staleBefore: number },
  guard?: LiveShiftGuard,
): Promise<ShiftRow | undefined> {
  let query = db
    .updateTable('shifts')
    .set({ status: 'completed', ended_at: end.endedAt, end_reason: end.reason })
    .where('id', '=', id)
    .where((eb) => liveSince(eb, end.staleBefore));
  if (guard) query = query.where((eb) => guardHolds(eb, guardValues(guard)));
  return query.returningAll().executeTakeFirst();
}

function shiftsWithStaff(db: Executor) {
  return db
    .selectFrom('shifts as sh')
    .innerJoin('staff as st', 'st.id', 'sh.staff_id')
    .selectAll('sh')
    .select(['st.display_name as staff_display_name', 'st.game_user_id as staff_game_user_id']);
}

/** A shift visible to a reader of the workspace and environment. */
export async function findVisibleShift(
  db: Executor,
  audience: ShiftAudience,
  id: string,
): Promise<ShiftWithStaff | undefined> {
  return shiftsWithStaff(db)
    .where('sh.id', '=', id)
    .where('sh.workspace_id', '=', audience.workspaceId)
    .where('sh.environment', '=', audience.environment)
    .executeTakeFirst();
}

/** Live active shifts of the workspace and environment after the cursor, by (started_at, id). */
export async function listLiveShifts(
  db: Executor,
  audience: ShiftAudience,
  page: { readonly staleBefore: number; readonly after: ActiveShiftsCursor | null; readonly limit: number },
): Promise<ShiftWithStaff[]> {
  let query = shiftsWithStaff(db)
    .where('sh.workspace_id', '=', audience.workspaceId)
    .where('sh.environment', '=', audience.environment)
    .where('sh.status', '=', ACTIVE)
    .where('sh.last_seen_at', '>=', page.staleBefore);
  const after = page.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('sh.started_at', '>', after.startedAt),
        eb.and([eb('sh.started_at', '=', after.startedAt), eb('sh.id', '>', after.id)]),
      ]),
    );
  }
  return query.orderBy('sh.started_at').orderBy('sh.id').limit(page.limit).execute();
}
