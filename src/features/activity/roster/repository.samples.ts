import { AUDIENCE, NOW, STAFF, type Samples } from '../../../db/samples.ts';
import * as roster from './repository.ts';

export const samples = {
  findLiveShifts: (db) => roster.findLiveShifts(db, AUDIENCE, [STAFF, 'staff-2'], NOW - 300_000),
  listRecentShifts: (db) => roster.listRecentShifts(db, AUDIENCE, STAFF, 20),
  listRecentNotices: (db) => roster.listRecentNotices(db, 'live', STAFF, 10),
} satisfies Samples<typeof roster>;
