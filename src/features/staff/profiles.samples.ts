import { CREDENTIAL, noQuery, NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
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
  profileColumns: noQuery('a constant select list'),
  profileOfRow: noQuery('reads a selected row'),
  findStaffProfile: (db) => staff.findStaffProfile(db, WORKSPACE, STAFF),
} satisfies Samples<typeof staff>;
