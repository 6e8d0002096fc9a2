/** Example responses of the activity reports, as the OpenAPI document shows them. */

export const STAFF_ID = '6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b';
export const DEPARTMENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const WORKSPACE_ID = '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918';

const activeShift = {
  id: '0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b',
  startedAt: '2026-03-11T12:00:00.000Z',
  lastHeartbeatAt: '2026-03-11T12:05:00.000Z',
  elapsedSeconds: 420,
  universeId: '42',
  placeId: '7',
  serverId: 'srv-eu-1',
};

const meta = { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'discord-interaction-1187' };

export const summaryResponseExample = {
  data: {
    todayMinutes: 45,
    currentWeekMinutes: 150,
    previousWeekMinutes: 210,
    currentMonthMinutes: 480,
    weeklyRequiredMinutes: 90,
    progressPercent: 166.67,
    activeShift,
    inactivityEffect: {
      noticeId: '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a',
      startsAt: '2026-03-09T00:00:00.000Z',
      endsAt: '2026-03-12T00:00:00.000Z',
      reason: 'exams',
      waivedMinutes: 30,
    },
    timezone: 'Europe/Berlin',
    currentWeekStart: '2026-03-08T23:00:00.000Z',
    currentWeekEnd: '2026-03-15T23:00:00.000Z',
    currentMonthStart: '2026-02-28T23:00:00.000Z',
    currentMonthEnd: '2026-03-31T22:00:00.000Z',
  },
  meta,
};

const week = { start: '2026-03-09T00:00:00.000Z', end: '2026-03-16T00:00:00.000Z', timezone: 'UTC' };

export const staffActivityResponseExample = {
  data: {
    staff: { id: STAFF_ID, displayName: 'Alice', gameUserId: '1001' },
    period: week,
    totalSeconds: 9015,
    totalMinutes: 150,
    completedShifts: 3,
    activeShift: null,
  },
};

export const leaderboardResponseExample = {
  data: {
    entries: [
      {
        staffId: STAFF_ID,
        displayName: 'Alice',
        gameUserId: '1001',
        gameUsername: 'alice',
        totalSeconds: 9015,
        totalMinutes: 150,
        completedShifts: 3,
        department: 'Moderation',
        rank: 'Moderator',
        progressPercent: 125,
        position: 1,
      },
    ],
    nextCursor: { cursorTotalSeconds: 9015, cursorStaffId: STAFF_ID },
    period: week,
  },
  meta,
};
