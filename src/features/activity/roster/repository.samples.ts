import { AUDIENCE, STAFF, type Samples } from '../../../db/samples.ts';
import * as roster from './repository.ts';

/** The week of 2026-03-09 in UTC (the samples' NOW lies in it). */
const WEEK = { start: Date.parse('2026-03-09T00:00:00Z'), end: Date.parse('2026-03-16T00:00:00Z') };

const FIRST_PAGE = { statuses: ['active'], departmentId: null, rank: null, after: null, limit: 51 };

export const samples = {
  listRosterPage: {
    first: (db) => roster.listRosterPage(db, AUDIENCE, { ...FIRST_PAGE }, WEEK),
    filtered: (db) =>
      roster.listRosterPage(
        db,
        AUDIENCE,
        { ...FIRST_PAGE, statuses: ['active', 'inactive'], departmentId: 'department-1', rank: 'Moderator', after: { displayName: 'Alice', id: STAFF } },
        WEEK,
      ),
  },
  listRecentShifts: (db) => roster.listRecentShifts(db, AUDIENCE, STAFF, 20),
  listRecentNotices: (db) => roster.listRecentNotices(db, 'live', STAFF, 10),
} satisfies Samples<typeof roster>;
