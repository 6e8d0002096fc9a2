/** Example answers of the roster and a staff member's page, as the OpenAPI document shows them. */
import { DEPARTMENT_ID, STAFF_ID } from '../reports/examples.ts';

export { DEPARTMENT_ID, STAFF_ID };

const meta = { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' };
const SHIFT_ID = '0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b';

const item = {
  id: STAFF_ID,
  displayName: 'Alice',
  gameUserId: '1001',
  gameUsername: 'alice',
  chatUserId: '112233445566778899',
  departmentId: DEPARTMENT_ID,
  rank: 'Moderator',
  status: 'active',
  week: { totalMinutes: 150, requiredMinutes: 180, progressPercent: 83.33 },
  activeShift: { id: SHIFT_ID, startedAt: '2026-03-11T11:40:00.000Z' },
};

export const rosterResponseExample = {
  data: { staff: [item], nextCursor: { cursorDisplayName: 'Alice', cursorId: STAFF_ID } },
  meta,
};

const weekPeriod = { start: '2026-03-09T00:00:00.000Z', end: '2026-03-16T00:00:00.000Z', timezone: 'UTC' };
const monthPeriod = { start: '2026-03-01T00:00:00.000Z', end: '2026-04-01T00:00:00.000Z', timezone: 'UTC' };
const weekStarts = ['01-19', '01-26', '02-02', '02-09', '02-16', '02-23', '03-02', '03-09'];
const weekMinutes = [200, 185, 0, 90, 240, 180, 175, 150];

export const staffPageResponseExample = {
  data: {
    staff: item,
    week: { period: weekPeriod, totalSeconds: 9015, totalMinutes: 150, completedShifts: 3, requiredMinutes: 180, progressPercent: 83.33 },
    month: { period: monthPeriod, totalSeconds: 19530, totalMinutes: 325, completedShifts: 7 },
    weeks: weekStarts.map((day, i) => ({
      start: `2026-${day}T00:00:00.000Z`,
      totalMinutes: weekMinutes[i] ?? 0,
      requiredMinutes: day === '02-02' ? 0 : 180,
    })),
    recentShifts: [
      {
        id: '4c2b1a09-8f7e-4d6c-9b5a-3e2d1c0b9a87',
        startedAt: '2026-03-10T18:00:00.000Z',
        endedAt: '2026-03-10T19:30:15.000Z',
        minutes: 90,
        endReason: 'player_left',
      },
    ],
    notices: [
      {
        id: '2d3e4f50-6172-4839-8a4b-5c6d7e8f9a0b',
        staffId: STAFF_ID,
        environment: 'live',
        startsAt: '2026-02-02T00:00:00.000Z',
        endsAt: '2026-02-09T00:00:00.000Z',
        status: 'approved',
        createdAt: '2026-01-28T09:12:00.000Z',
        decidedAt: '2026-01-28T17:40:00.000Z',
      },
    ],
    rankChanges: [],
  },
  meta,
};
