/** Set-based shift queries of the game-server batch calls: a constant number of statements per batch. */
import { idAmongLockedInOrder, lockingWhatItReads } from '../../db/row-locks.ts';
import type { Executor } from '../../db/types.ts';
import {
  ACTIVE,
  guardHolds,
  guardValues,
  liveSince,
  type HeartbeatValues,
  type LiveShiftGuard,
  type ShiftOwner,
  type ShiftRow,
} from './repository.ts';

export type RecordedHeartbeat = Pick<ShiftRow, 'id' | 'last_heartbeat_at'>;

/**
 * Records one heartbeat on every listed live shift that `guard` allows, in one statement (as recordHeartbeat
 * does for one: `last_heartbeat_at` only moves forward); the rows it changed. The others are left alone.
 */
export async function recordHeartbeats(
  trx: Executor,
  ids: readonly string[],
  heartbeat: HeartbeatValues,
  guard: LiveShiftGuard,
): Promise<RecordedHeartbeat[]> {
  if (ids.length === 0) return [];
  const values = guardValues(guard);
  return trx
    .updateTable('shifts')
    .set((eb) => ({
      last_heartbeat_at: eb
        .case()
        .when('last_heartbeat_at', '<', heartbeat.recordedAt)
        // A bound value: Kysely writes a bare number given to `then` into the SQL text, which would make every
        // batch a statement of its own (prepared anew, and evicting others from the statement cache).
        .then(eb.val(heartbeat.recordedAt))
        .else(eb.ref('last_heartbeat_at'))
        .end(),
      last_seen_at: heartbeat.seenAt,
    }))
    // Locked in id order, as the server stop locks them: otherwise the two can deadlock (see db/row-locks.ts).
    .where(idAmongLockedInOrder(trx, 'shifts', ids))
    .where((eb) => liveSince(eb, heartbeat.staleBefore))
    .where((eb) => guardHolds(eb, values))
    .returning(['id', 'last_heartbeat_at'])
    .execute();
}

/** The listed shifts that belong to the owner (any status). */
export async function findOwnedShifts(trx: Executor, owner: ShiftOwner, ids: readonly string[]): Promise<ShiftRow[]> {
  if (ids.length === 0) return [];
  return trx
    .selectFrom('shifts')
    .selectAll()
    .where('id', 'in', ids)
    .where('application_id', '=', owner.applicationId)
    .where('environment', '=', owner.environment)
    .execute();
}

/**
 * The owner's active shifts on one game server (timed-out ones included), by id, locked for the server stop in id
 * order before it changes any of them (or the workspace's row, which every completion locks after its shift's):
 * single stops and batch heartbeats racing it then wait instead of deadlocking.
 */
export async function findActiveShiftsOfServer(trx: Executor, owner: ShiftOwner, serverId: string): Promise<ShiftRow[]> {
  const query = trx
    .selectFrom('shifts')
    .selectAll()
    .where('application_id', '=', owner.applicationId)
    .where('environment', '=', owner.environment)
    .where('status', '=', ACTIVE)
    .where('server_id', '=', serverId)
    .orderBy('id');
  return lockingWhatItReads(trx, query).execute();
}
