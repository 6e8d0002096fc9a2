/** Example requests and responses of the application review routes, as the OpenAPI document shows them. */

export const SUBMISSION_ID = '4b3a2918-0f7e-4d6c-8b5a-493827160f5e';
export const WORKSPACE_ID = '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918';
const COMMAND_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const EVENT_ID = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
const meta = { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' };

export const acceptBodyExample = { reviewNote: 'Strong answers; welcome aboard.', createStaffProfile: true };
export const decisionBodyExample = { reviewNote: 'Checking references first.' };
export const reviewPatchBodyExample = { score: 87.5, reviewerNotes: 'Clear, friendly answers.' };

export const acceptResponseExample = {
  data: {
    submissionId: SUBMISSION_ID,
    status: 'accepted',
    acceptedAt: '2026-03-11T12:00:00.000Z',
    staffProfileCreated: true,
    staffProfileId: '6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b',
    commandId: COMMAND_ID,
    eventId: EVENT_ID,
  },
  meta,
};

export const underReviewResponseExample = {
  data: {
    submissionId: SUBMISSION_ID,
    status: 'under_review',
    reviewedAt: '2026-03-11T12:00:00.000Z',
    commandId: COMMAND_ID,
    eventId: EVENT_ID,
  },
  meta,
};

export const rejectResponseExample = {
  data: {
    submissionId: SUBMISSION_ID,
    status: 'rejected',
    rejectedAt: '2026-03-11T12:00:00.000Z',
    commandId: COMMAND_ID,
    eventId: EVENT_ID,
  },
  meta,
};

export const reviewUpdateResponseExample = {
  data: {
    submissionId: SUBMISSION_ID,
    status: 'under_review',
    score: 87.5,
    scoreUpdated: true,
    reviewerNotesUpdated: true,
    reviewedAt: '2026-03-11T12:00:00.000Z',
    commandId: COMMAND_ID,
    eventId: EVENT_ID,
  },
  meta,
};
