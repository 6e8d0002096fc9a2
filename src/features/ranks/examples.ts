/** Examples of the rank operations, for the OpenAPI document. */
export const STAFF_ID = '6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b';
export const WORKSPACE_ID = '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a';
const META = { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' };

export const staffExample = {
  id: STAFF_ID,
  displayName: 'Alice',
  gameUserId: '1001',
  gameUsername: 'alice',
  chatUserId: '5551',
  departmentId: null,
  rank: 'Senior Moderator',
  status: 'active' as const,
};

export const changeExample = {
  id: '01936a4e-2b7c-7d3e-8f41-5a6b7c8d9e0f',
  staffId: STAFF_ID,
  fromRank: 'Moderator',
  toRank: 'Senior Moderator',
  reason: 'Six months of steady work',
  changedBy: 'idp|manager-1',
  createdAt: '2026-03-11T12:00:00.000Z',
  sync: { status: 'pending' as const, attempts: 0, lastError: null, appliedAt: null },
};

export const changeResponseExample = {
  data: {
    staff: staffExample,
    change: changeExample,
    commandId: '01936a4e-2b7c-7d3e-8f41-5a6b7c8d9e10',
    eventId: '01936a4e-2b7c-7d3e-8f41-5a6b7c8d9e11',
  },
  meta: META,
};

export const listResponseExample = {
  data: {
    changes: [
      {
        ...changeExample,
        sync: { status: 'applied' as const, attempts: 1, lastError: null, appliedAt: '2026-03-11T12:00:01.000Z' },
      },
    ],
  },
  meta: META,
};

export const syncFailedExample = {
  staff: staffExample,
  change: {
    ...changeExample,
    sync: {
      status: 'failed' as const,
      attempts: 1,
      lastError: { status: 403, code: 'PERMISSION_DENIED', message: 'The API key lacks the group:write scope.' },
      appliedAt: null,
    },
  },
};
