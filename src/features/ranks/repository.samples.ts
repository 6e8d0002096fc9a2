import { NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as ranks from './repository.ts';

const CHANGE: ranks.RankChangeRow = {
  id: 'change-1',
  workspace_id: WORKSPACE,
  staff_id: STAFF,
  from_rank: 'Moderator',
  to_rank: 'Senior Moderator',
  from_role_id: '11',
  to_role_id: '12',
  reason: null,
  changed_by: 'user-1',
  created_at: NOW,
  sync_status: 'pending',
  attempts: 0,
  last_error: null,
  applied_at: null,
  next_attempt_at: NOW,
  expires_at: NOW + 86_400_000,
  claimed_until: null,
  claimed_by: null,
  updated_at: NOW,
};

export const samples = {
  findStaffLocking: (db) => ranks.findStaffLocking(db, STAFF),
  findStaffWorkspace: (db) => ranks.findStaffWorkspace(db, STAFF),
  findRanks: (db) => ranks.findRanks(db, WORKSPACE),
  findRanksInOrder: (db) => ranks.findRanksInOrder(db, [WORKSPACE]),
  findSyncConfigured: (db) => ranks.findSyncConfigured(db, WORKSPACE),
  insertRankChange: (db) => ranks.insertRankChange(db, CHANGE),
  findRankChanges: (db) => ranks.findRankChanges(db, STAFF, 50),
  findRankChange: (db) => ranks.findRankChange(db, 'change-1'),
  findEntryRank: (db) => ranks.findEntryRank(db, 'submission-1'),
} satisfies Samples<typeof ranks>;
