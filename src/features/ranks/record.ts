/**
 * A change of a staff member's rank, written in the caller's transaction: the staff member's rank, the change
 * with its sync state (pending when the group can be synced), one command and the event `staff.rank.changed`
 * (delivered to webhooks with the answer as `data`). Used by `POST /v1/staff/{staffId}/rank` and by an
 * acceptance's entry rank.
 */
import { notifyAfterCommit } from '../../db/connect.ts';
import type { Executor } from '../../db/types.ts';
import { newTimeOrderedId } from '../../shared/ids.ts';
import { recordOperation, type RequestContext } from '../../journal/journal.ts';
import { setStaffRank } from '../staff/upkeep.ts';
import { findRanks, findSyncConfigured, insertRankChange, type RankChangeRow, type RankStaffRow } from './repository.ts';
import { SYNC_WINDOW_MS } from './rules.ts';
import type { ChangeResult } from './schemas.ts';
import { rankChangeView, rankStaffView } from './views.ts';

export interface RankChangeInput {
  readonly staff: RankStaffRow;
  readonly toRank: string;
  readonly reason: string | null;
  /** The member's user id. */
  readonly changedBy: string;
  readonly request: RequestContext;
  /** The command's type: `rank_changed`, or `entry_rank_given` for an acceptance's. */
  readonly commandType: string;
  readonly now: number;
}

export async function recordRankChange(trx: Executor, input: RankChangeInput): Promise<ChangeResult> {
  const { staff, toRank, now } = input;
  const ranks = await findRanks(trx, staff.workspace_id);
  const roleOf = (name: string | null) => (name === null ? null : (ranks.find((rank) => rank.name === name)?.role_id ?? null));
  const fromRoleId = roleOf(staff.rank);
  const toRoleId = roleOf(toRank);
  // Nothing to sync without a group and key, or when neither rank stands for a role.
  const syncable = (fromRoleId !== null || toRoleId !== null) && (await findSyncConfigured(trx, staff.workspace_id));
  await setStaffRank(trx, staff.id, toRank);
  const row: RankChangeRow = {
    id: newTimeOrderedId(),
    workspace_id: staff.workspace_id,
    staff_id: staff.id,
    from_rank: staff.rank,
    to_rank: toRank,
    from_role_id: fromRoleId,
    to_role_id: toRoleId,
    reason: input.reason,
    changed_by: input.changedBy,
    created_at: now,
    sync_status: syncable ? 'pending' : 'not_configured',
    attempts: 0,
    last_error: null,
    applied_at: null,
    next_attempt_at: now,
    expires_at: now + SYNC_WINDOW_MS,
    claimed_until: null,
    claimed_by: null,
    updated_at: now,
  };
  await insertRankChange(trx, row);
  // Its commit wakes this process's rank sync (src/server.ts), as it wakes the webhook dispatcher.
  if (syncable) notifyAfterCommit(trx);
  const payload = { staffId: staff.id, changeId: row.id, fromRank: row.from_rank, toRank };
  return recordOperation(
    trx,
    {
      workspaceId: staff.workspace_id,
      environment: 'live',
      commandType: input.commandType,
      eventType: 'staff.rank.changed',
      actor: { type: 'user', id: input.changedBy },
      request: input.request,
      submissionId: null,
      commandPayload: payload,
      eventPayload: payload,
      at: now,
    },
    { staff: rankStaffView({ ...staff, rank: toRank }), change: rankChangeView(row) },
  );
}
