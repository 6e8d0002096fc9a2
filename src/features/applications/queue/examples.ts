/** Example responses of the reviewers' queue, one submission and the stats, as the OpenAPI document shows them. */
import { SUBMISSION_ID, WORKSPACE_ID } from '../review/examples.ts';

export { SUBMISSION_ID, WORKSPACE_ID };
export const FORM_ID = '2c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f';
const FORM_NAME = 'Moderator application';
const USER_ID = 'user_2f9Kq8LmX4';
const APPLICATION_ID = '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';
const meta = { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' };

const item = {
  id: SUBMISSION_ID,
  formId: FORM_ID,
  formName: FORM_NAME,
  status: 'under_review',
  environment: 'live',
  applicant: { gameUserId: '261', gameUsername: 'builderman', displayName: 'Builder', chatUserId: null },
  score: 87.5,
  createdAt: '2026-03-10T09:30:00.000Z',
  reviewedAt: '2026-03-11T12:00:00.000Z',
  decidedAt: null,
};

export const queueResponseExample = {
  data: {
    submissions: [item],
    nextCursor: { cursorCreatedAt: '2026-03-10T09:30:00.000Z', cursorId: SUBMISSION_ID },
  },
  meta,
};

export const detailResponseExample = {
  data: {
    submission: {
      ...item,
      reviewerNotes: 'Clear, friendly answers.',
      staffProfileId: null,
      answers: [
        { questionId: 'why', label: 'Why do you want to join?', type: 'long_text', value: 'I like helping people.' },
        { questionId: 'age', label: 'How old are you?', type: 'number', value: 19 },
        { questionId: 'tz', label: 'Time zone', type: 'choice', value: 'EU' },
      ],
      history: [
        {
          commandId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
          eventId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
          type: 'submitted',
          actor: { type: 'api_key', id: APPLICATION_ID, name: 'Main game' },
          at: '2026-03-10T09:30:00.000Z',
          reviewNote: null,
        },
        {
          commandId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
          eventId: '0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d',
          type: 'marked_under_review',
          actor: { type: 'dashboard_user', id: USER_ID, name: null },
          at: '2026-03-11T12:00:00.000Z',
          reviewNote: 'Checking references first.',
        },
      ],
    },
  },
  meta,
};

export const statsResponseExample = {
  data: {
    forms: [
      { formId: FORM_ID, formName: FORM_NAME, submitted: 12, underReview: 3, accepted: 40, rejected: 17 },
      { formId: '8b7a6f5e-4d3c-4b2a-9f0e-1d2c3b4a5f6e', formName: 'Trainer application', submitted: 0, underReview: 0, accepted: 0, rejected: 0 },
      { formId: null, formName: null, submitted: 1, underReview: 0, accepted: 5, rejected: 2 },
    ],
  },
  meta,
};
