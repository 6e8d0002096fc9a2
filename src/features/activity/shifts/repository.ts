/**
 * Queries of shifts. The hot ones (every heartbeat, start and stop runs them) are `sql` templates, which cost less
 * to build than Kysely's builders; the rest are Kysely queries. Starting and completing a shift are not here: only
 * the lifecycle (lifecycle.ts) does that, and the known heartbeat's statements are in known-heartbeat.ts.
 */
import type { Environment } from '../../../shared/actor.ts';
import type { TimeCursor } from '../../../shared/paging.ts';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { greatest, inJsonList, inJsonListLocked, lockRows, rowsOf } from '../../../db/dialect.ts';
import type { Executor, ShiftTable } from '../../../db/types.ts';
import { heartbeatAccepted, liveShift, type HeartbeatServer } from './rules.ts';
import { ACTIVE } from './status.ts';

export type ShiftRow = Selectable<ShiftTable>;

/** A shift with the staff fields the read endpoints show. */
export interface ShiftWithStaff extends ShiftRow {
  readonly staff_display_name: string;
  readonly staff_game_user_id: string;
}

/** Which application and environment a write acts for. */
export interface ShiftOwner {
  readonly applicationId: string;
  readonly environment: Environment;
}

/** Which workspace and environment a read sees. */
export interface ShiftAudience {
  readonly workspaceId: string;
  readonly environment: Environment;
}

/** A heartbeat as the statements record it: it moves only the shifts that accept it (rules.ts, ShiftRefusal). */
export interface Heartbeat {
  /** The game server's instant of the heartbeat. */
  readonly recordedAt: number;
  /** The server clock's instant it was received: liveness is judged by it. */
  readonly seenAt: number;
  readonly staleBefore: number;
  readonly owner: ShiftOwner;
  readonly serverId: string | null;
}

export interface RecordedHeartbeat {
  readonly id: string;
  readonly last_heartbeat_at: number;
}

export async function findOwnedShift(db: Executor, owner: ShiftOwner, id: string): Promise<ShiftRow | undefined> {
  return db
    .selectFrom('shifts')
    .selectAll()
    .where('id', '=', id)
    .where('application_id', '=', owner.applicationId)
    .where('environment', '=', owner.environment)
    .executeTakeFirst();
}

/** The listed shifts that belong to the owner (any status). */
export async function findOwnedShifts(db: Executor, owner: ShiftOwner, ids: readonly string[]): Promise<ShiftRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('shifts')
    .selectAll()
    .where('id', 'in', [...ids])
    .where('application_id', '=', owner.applicationId)
    .where('environment', '=', owner.environment)
    .execute();
}

/** The staff member's active shift (live or timed out) for the owner, if any. */
export async function findActiveShift(db: Executor, owner: ShiftOwner, staffId: string): Promise<ShiftRow | undefined> {
  const [row] = await rowsOf(
    db,
    sql<ShiftRow>`select * from shifts
where application_id = ${owner.applicationId} and environment = ${owner.environment} and staff_id = ${staffId} and status = 'active'`,
  );
  return row;
}

/** The owner's active shifts (timed-out ones included) on one game server. */
export async function findActiveShiftsOfServer(db: Executor, owner: ShiftOwner, serverId: string): Promise<ShiftRow[]> {
  return db
    .selectFrom('shifts')
    .selectAll()
    .where('application_id', '=', owner.applicationId)
    .where('environment', '=', owner.environment)
    .where('status', '=', ACTIVE)
    .where('server_id', '=', serverId)
    .execute();
}

/**
 * Locks the shifts' rows for the rest of the transaction, in id order (PostgreSQL; SQLite's one writer needs no
 * row locks). Every writer of several shifts takes their locks
 * here first, and every completion locks its workspace's row only after its shift's (lifecycle.ts): writers that
 * meet then wait for each other instead of deadlocking.
 */
export async function lockShifts(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  // Two writers that change overlapping sets of shifts in different orders (a batch heartbeat and a server stop)
  // could each hold a row the other waits for; locked first, in id order, they wait for each other instead.
  await lockRows(db, shiftsInLockOrder(db, ids));
}

/** The shifts' ids in the order every writer of several shifts locks them (lockShifts). */
function shiftsInLockOrder(db: Executor, ids: readonly string[]): RawBuilder<unknown> {
  return sql`select id from shifts where ${inJsonList(db, 'id', ids)} order by id`;
}

/**
 * The update of a heartbeat: on the shifts `which` (one by id, or many by their ids) that accept it (rules.ts,
 * heartbeatAccepted); `last_heartbeat_at` only moves forward.
 */
function heartbeatUpdate(
  db: Executor,
  which: RawBuilder<boolean>,
  heartbeat: Heartbeat,
  server: HeartbeatServer,
): RawBuilder<RecordedHeartbeat> {
  const { recordedAt, seenAt, staleBefore, owner } = heartbeat;
  const accepted = heartbeatAccepted(
    { recordedAt, staleBefore, applicationId: owner.applicationId, environment: owner.environment, server },
    { indent: '  ' },
  );
  return sql<RecordedHeartbeat>`update shifts
set last_heartbeat_at = ${greatest(db, sql.raw('last_heartbeat_at'), recordedAt)}, last_seen_at = ${seenAt}
where ${which}
  and ${accepted}
returning id, last_heartbeat_at`;
}

/** Records a heartbeat on one shift (`last_heartbeat_at` only moves forward); undefined when it does not apply. */
export async function recordHeartbeat(
  db: Executor,
  id: string,
  heartbeat: Heartbeat,
): Promise<RecordedHeartbeat | undefined> {
  const server = { ifNamed: heartbeat.serverId };
  const [row] = (await heartbeatUpdate(db, sql<boolean>`id = ${id}`, heartbeat, server).execute(db)).rows;
  return row;
}

/**
 * Records one heartbeat of a server on many shifts in one statement (as recordHeartbeat), every listed shift's row
 * locked first; the rows it changed.
 */
export async function recordHeartbeats(
  db: Executor,
  ids: readonly string[],
  heartbeat: Heartbeat & { readonly serverId: string },
): Promise<RecordedHeartbeat[]> {
  if (ids.length === 0) return [];
  // Every listed shift's row is locked first, in id order, as lockShifts locks them, by the update's own statement.
  const which = inJsonListLocked(db, 'id', ids, shiftsInLockOrder(db, ids));
  const update = heartbeatUpdate(db, which, heartbeat, { exactly: heartbeat.serverId });
  return (await update.execute(db)).rows;
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
  page: { readonly staleBefore: number; readonly after: TimeCursor | null; readonly limit: number },
): Promise<ShiftWithStaff[]> {
  let query = shiftsWithStaff(db)
    .where('sh.workspace_id', '=', audience.workspaceId)
    .where('sh.environment', '=', audience.environment)
    .where(liveShift(page.staleBefore, 'scan', 'sh'));
  const after = page.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('sh.started_at', '>', after.at),
        eb.and([eb('sh.started_at', '=', after.at), eb('sh.id', '>', after.id)]),
      ]),
    );
  }
  return query.orderBy('sh.started_at').orderBy('sh.id').limit(page.limit).execute();
}
