import { CREDENTIAL, noQuery, NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as staff from './profiles.ts';

export const samples = {
  findWorkspaceWithChatStaff: async (db) => {
    await staff.findWorkspaceWithChatStaff(db, WORKSPACE, 'chat-user-1');
    // With a hot read's unconfirmed key to check.
    return staff.findWorkspaceWithChatStaff(db, WORKSPACE, 'chat-user-1', { credential: CREDENTIAL, at: NOW }).catch(() => undefined);
  },
  findStaffByGameUser: (db) => staff.findStaffByGameUser(db, WORKSPACE, '1001'),
  findStaffProfiles: (db) => staff.findStaffProfiles(db, WORKSPACE, [STAFF, 'staff-2']),
  profileColumns: noQuery('a constant select list'),
  profileOfRow: noQuery('reads a selected row'),
  findStaffProfile: (db) => staff.findStaffProfile(db, WORKSPACE, STAFF),
} satisfies Samples<typeof staff>;
