import { NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as staff from './upkeep.ts';

const NEW_STAFF = { workspaceId: WORKSPACE, displayName: 'Alice', gameUserId: '1001', gameUsername: 'alice', chatUserId: null, createdAt: NOW };

export const samples = {
  upsertStaff: (db) =>
    staff.upsertStaff(db, [
      {
        id: STAFF,
        workspace_id: WORKSPACE,
        display_name: 'Alice',
        game_user_id: '1001',
        game_username: 'alice',
        chat_user_id: null,
        department_id: null,
        rank: null,
        status: 'active',
        weekly_required_minutes: null,
        created_at: NOW,
      },
    ]),
  releaseGameUserId: (db) => staff.releaseGameUserId(db, STAFF),
  insertStaffIfAbsent: (db) => staff.insertStaffIfAbsent(db, STAFF, NEW_STAFF),
  // The recording store finds no profile and inserts none, so the call ends in its race's error after its statements.
  ensureStaffProfile: (db) => staff.ensureStaffProfile(db, NEW_STAFF).catch(() => undefined),
  setStaffRank: (db) => staff.setStaffRank(db, STAFF, 'Senior Moderator'),
  findStaffIdentities: {
    everywhere: (db) => staff.findStaffIdentities(db, '1001'),
    inWorkspace: (db) => staff.findStaffIdentities(db, '1001', WORKSPACE),
  },
  anonymiseStaff: (db) => staff.anonymiseStaff(db, STAFF, `erased-${STAFF}`),
} satisfies Samples<typeof staff>;
