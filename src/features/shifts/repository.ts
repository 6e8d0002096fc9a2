/**
 * Queries of shifts. The hot writes run named statements (src/db/sql/); the rest are Kysely queries. Starting
 * and completing a shift are not here: only the lifecycle (lifecycle.ts) does that.
 */
import type { TimeCursor } from '../../paging.ts';
import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  runStatement,
  type CredentialValues,
  type KnownHeartbeatValues,
  type RecordedHeartbeatRow,
} from '../../db/sql/index.ts';
import type { Database, Executor, ShiftTable } from '../../db/types.ts';
import type { StoredResult } from '../../idempotency/index.ts';
import type { KeyCredential } from '../../keys/credential.ts';
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
  readonly environment: string;
}

/** Which workspace and environment a read sees. */
export interface ShiftAudience {
  readonly workspaceId: string;
  readonly environment: string;
}

/**
 * A heartbeat as the statements record it: it moves only the owner's live shifts (active, and seen at or after
 * `staleBefore`) started by `recordedAt`, of `serverId` when it names one.
 */
export interface Heartbeat {
  /** The game server's instant of the heartbeat. */
  readonly recordedAt: number;
  /** The server clock's instant it was received: liveness is judged by it. */
  readonly seenAt: number;
  readonly staleBefore: number;
  readonly owner: ShiftOwner;
  readonly serverId: string | null;
}

/** A heartbeat whose answer is known before it runs (see recordKnownHeartbeat): its shift and its API key's credential. */
export interface KnownHeartbeat extends Heartbeat {
  readonly id: string;
  readonly credential: KeyCredential;
}

export type RecordedHeartbeat = RecordedHeartbeatRow;

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
  const [row] = await runStatement(db, 'findActiveShift', [owner.applicationId, owner.environment, staffId]);
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
 * Locks the shifts' rows for the rest of the transaction, in id order (PostgreSQL; on SQLite, whose one writer
 * needs no row locks, the same statement only reads them). Every writer of several shifts takes their locks
 * here first, and every completion locks its workspace's row only after its shift's (lifecycle.ts): writers that
 * meet then wait for each other instead of deadlocking.
 */
export async function lockShifts(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await runStatement(db, 'lockShifts', [JSON.stringify(ids)]);
}

/** Records a heartbeat on one shift (`last_heartbeat_at` only moves forward); undefined when it does not apply. */
export async function recordHeartbeat(
  db: Executor,
  id: string,
  heartbeat: Heartbeat,
): Promise<RecordedHeartbeat | undefined> {
  const { recordedAt, seenAt, staleBefore, owner, serverId } = heartbeat;
  const [row] = await runStatement(db, 'recordHeartbeat', [
    recordedAt,
    seenAt,
    id,
    staleBefore,
    owner.applicationId,
    owner.environment,
    recordedAt,
    serverId,
  ]);
  return row;
}

/** Records one heartbeat of a server on many shifts in one statement (as recordHeartbeat); the rows it changed. */
export async function recordHeartbeats(
  db: Executor,
  ids: readonly string[],
  heartbeat: Heartbeat & { readonly serverId: string },
): Promise<RecordedHeartbeat[]> {
  if (ids.length === 0) return [];
  const { recordedAt, seenAt, staleBefore, owner, serverId } = heartbeat;
  return runStatement(db, 'recordHeartbeats', [
    recordedAt,
    seenAt,
    JSON.stringify(ids),
    staleBefore,
    owner.applicationId,
    owner.environment,
    recordedAt,
    serverId,
  ]);
}

function credentialValues(credential: KeyCredential, now: number): CredentialValues {
  return [
    credential.keyHash,
    credential.keyId,
    credential.environment,
    credential.scopes,
    now,
    credential.applicationId,
    credential.applicationName,
    credential.workspaceId,
    credential.features,
    credential.allowedUniverseIds,
  ];
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** The known heartbeat's values: the heartbeat, the credential to check, and the key that must be free. */
function knownHeartbeatValues(known: KnownHeartbeat, result: StoredResult): KnownHeartbeatValues {
  const { id, recordedAt, seenAt, staleBefore, owner, serverId, credential } = known;
  return [
    recordedAt,
    seenAt,
    id,
    staleBefore,
    recordedAt,
    owner.applicationId,
    owner.environment,
    recordedAt,
    serverId,
    ...credentialValues(credential, result.now),
    result.scope,
    result.key,
  ];
}

/**
 * A heartbeat whose answer is known before it runs; whether it applied. It moves `last_heartbeat_at` to exactly
 * `recordedAt`, so it applies only when no later heartbeat is recorded; and only while the key is free (no result
 * stored under it; on PostgreSQL its lock free) and the credential of the API key it acts for still holds.
 * SQLite, whose UPDATE cannot feed an INSERT: the update alone, in the job of the group commit that stores
 * `result` after it (src/idempotency/index.ts, applyKnown).
 */
export async function recordKnownHeartbeat(
  trx: Transaction<Database>,
  known: KnownHeartbeat,
  result: StoredResult,
): Promise<boolean> {
  return (await runStatement(trx, 'recordKnownHeartbeat', knownHeartbeatValues(known, result))).length > 0;
}

/**
 * PostgreSQL: the known heartbeat (as recordKnownHeartbeat) and its stored result, both or neither, in one
 * statement committed on its own.
 */
export async function recordKnownHeartbeatWithResult(
  db: Kysely<Database>,
  known: KnownHeartbeat,
  result: StoredResult,
): Promise<boolean> {
  const { fingerprint, status, body, requestId, now } = result;
  try {
    const rows = await runStatement(db, 'recordKnownHeartbeatWithResult', [
      ...knownHeartbeatValues(known, result),
      fingerprint,
      status,
      body,
      requestId,
      now,
    ]);
    return rows.length > 0;
  } catch (error) {
    // A result of the key committed after the statement's snapshot: nothing applied, the full operation replays it.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
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
    .where('sh.status', '=', ACTIVE)
    .where('sh.last_seen_at', '>=', page.staleBefore);
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
