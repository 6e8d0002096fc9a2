import { CREDENTIAL, NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import { credentialHolds } from '../../keys/api-key.ts';
import * as staff from './profiles.ts';

export const samples = {
  findWorkspaceWithChatStaff: async (db) => {
    await staff.findWorkspaceWithChatStaff(db, WORKSPACE, 'chat-user-1');
    // With a read's cached key to check.
    return staff.findWorkspaceWithChatStaff(db, WORKSPACE, 'chat-user-1', credentialHolds(CREDENTIAL, NOW)).catch(() => undefined);
  },
  findStaffByGameUser: (db) => staff.findStaffByGameUser(db, WORKSPACE, '1001'),
  findStaffProfiles: (db) => staff.findStaffProfiles(db, WORKSPACE, [STAFF, 'staff-2']),
  listStaffPage: {
    first: (db) => staff.listStaffPage(db, WORKSPACE, { statuses: ['active'], departmentId: null, rank: null, after: null, limit: 51 }),
    filtered: (db) =>
      staff.listStaffPage(db, WORKSPACE, {
        statuses: ['active', 'inactive'],
        departmentId: 'department-1',
        rank: 'Moderator',
        after: { displayName: 'Alice', id: STAFF },
        limit: 51,
      }),
  },
  findStaffProfile: (db) => staff.findStaffProfile(db, WORKSPACE, STAFF),
} satisfies Samples<typeof staff>;
