/** Example requests and responses of the inactivity notice routes, as the OpenAPI document shows them. */

export const NOTICE_ID = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a';
export const STAFF_ID = '6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b';
export const WORKSPACE_ID = '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918';
const DEPARTMENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const COMMAND_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const EVENT_ID = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
const meta = { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' };

export const requestBodyExample = {
  startsAt: '2026-03-16T00:00:00.000Z',
  endsAt: '2026-03-23T00:00:00.000Z',
  reason: 'Exams',
};
export const decisionBodyExample = { note: 'Good luck with the exams.' };

export const pendingNotice = {
  id: NOTICE_ID,
  staffId: STAFF_ID,
  environment: 'live',
  startsAt: '2026-03-16T00:00:00.000Z',
  endsAt: '2026-03-23T00:00:00.000Z',
  reason: 'Exams',
  status: 'pending',
  createdAt: '2026-03-11T12:00:00.000Z',
  decidedAt: null,
  decisionNote: null,
};

const approvedNotice = {
  ...pendingNotice,
  status: 'approved',
  decidedAt: '2026-03-12T09:30:00.000Z',
  decisionNote: 'Good luck with the exams.',
};

export const requestResponseExample = { data: { notice: pendingNotice, commandId: COMMAND_ID, eventId: EVENT_ID }, meta };
export const ownListResponseExample = { data: { notices: [approvedNotice] }, meta };
export const cancelResponseExample = {
  data: { notice: { ...pendingNotice, status: 'cancelled' }, commandId: COMMAND_ID, eventId: EVENT_ID },
  meta,
};
export const approveResponseExample = { data: { notice: approvedNotice, commandId: COMMAND_ID, eventId: EVENT_ID }, meta };
export const denyResponseExample = {
  data: {
    notice: { ...pendingNotice, status: 'denied', decidedAt: '2026-03-12T09:30:00.000Z', decisionNote: 'We need you that week.' },
    commandId: COMMAND_ID,
    eventId: EVENT_ID,
  },
  meta,
};
export const listResponseExample = {
  data: {
    notices: [
      {
        ...pendingNotice,
        staff: { id: STAFF_ID, displayName: 'Alice', gameUserId: '1001', chatUserId: '5551', departmentId: DEPARTMENT_ID },
        decidedBy: null,
      },
    ],
    nextCursor: { cursorStartsAt: '2026-03-16T00:00:00.000Z', cursorId: NOTICE_ID },
  },
  meta,
};
