import { AUDIENCE, HEARTBEAT, HOUR, NOW, OWNER, SHIFT, STAFF, type Samples } from '../../../db/samples.ts';
import * as shifts from './repository.ts';

export const samples = {
  findOwnedShift: (db) => shifts.findOwnedShift(db, OWNER, SHIFT),
  findOwnedShifts: (db) => shifts.findOwnedShifts(db, OWNER, [SHIFT, 'shift-2']),
  findActiveShift: (db) => shifts.findActiveShift(db, OWNER, STAFF),
  findActiveShiftsOfServer: (db) => shifts.findActiveShiftsOfServer(db, OWNER, 'server-1'),
  lockShifts: (db) => shifts.lockShifts(db, [SHIFT, 'shift-2']),
  recordHeartbeat: (db) => shifts.recordHeartbeat(db, SHIFT, HEARTBEAT),
  recordHeartbeats: (db) => shifts.recordHeartbeats(db, [SHIFT, 'shift-2'], HEARTBEAT),
  findVisibleShift: (db) => shifts.findVisibleShift(db, AUDIENCE, SHIFT),
  listLiveShifts: (db) =>
    shifts.listLiveShifts(db, AUDIENCE, { staleBefore: NOW - 300_000, after: { at: NOW - HOUR, id: SHIFT }, limit: 51 }),
} satisfies Samples<typeof shifts>;
