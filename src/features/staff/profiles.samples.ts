import { STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as staff from './profiles.ts';

export const samples = {
  findWorkspaceWithChatStaff: (db) => staff.findWorkspaceWithChatStaff(db, WORKSPACE, 'chat-user-1'),
  findStaffByGameUser: (db) => staff.findStaffByGameUser(db, WORKSPACE, '1001'),
  findStaffProfiles: (db) => staff.findStaffProfiles(db, WORKSPACE, [STAFF, 'staff-2']),
} satisfies Samples<typeof staff>;
