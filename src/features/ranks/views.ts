import { toIso } from '../../shared/clock.ts';
import type { RankChangeRow, RankStaffRow } from './repository.ts';
import type { SyncError, SyncStatus } from './rules.ts';
import type { RankChange, RankStaff } from './schemas.ts';

export function rankStaffView(row: RankStaffRow): RankStaff {
  return {
    id: row.id,
    displayName: row.display_name,
    gameUserId: row.game_user_id,
    gameUsername: row.game_username,
    chatUserId: row.chat_user_id,
    departmentId: row.department_id,
    rank: row.rank,
    status: row.status === 'inactive' ? 'inactive' : 'active',
  };
}

export function rankChangeView(row: RankChangeRow): RankChange {
  return {
    id: row.id,
    staffId: row.staff_id,
    fromRank: row.from_rank,
    toRank: row.to_rank,
    reason: row.reason,
    changedBy: row.changed_by,
    createdAt: toIso(Number(row.created_at)),
    sync: {
      status: row.sync_status as SyncStatus,
      attempts: row.attempts,
      lastError: row.last_error === null ? null : (JSON.parse(row.last_error) as SyncError),
      appliedAt: row.applied_at === null ? null : toIso(Number(row.applied_at)),
    },
  };
}
