import { AUDIENCE, HOUR, NOW, STAFF, WORKSPACE, type Samples } from '../../../db/samples.ts';
import * as reports from './repository.ts';

export const samples = {
  earliestLiveSeen: (db) => reports.earliestLiveSeen(db, AUDIENCE, NOW - 300_000),
  listRankedStaffIds: (db) => reports.listRankedStaffIds(db, WORKSPACE, { statuses: ['active'], departmentId: 'department-1' }),
  findApprovedNotices: (db) => reports.findApprovedNotices(db, 'live', [STAFF], { start: NOW - 168 * HOUR, end: NOW }),
} satisfies Samples<typeof reports>;
