/** Examples of the intake and applicant routes, as the OpenAPI document shows them. */
import { FORM_ID, meta } from '../forms/examples.ts';

const SUBMISSION_ID = '4b3a2918-0f7e-4d6c-8b5a-493827160f5e';

export const intakeBodyExample = {
  applicant: { gameUserId: 2001, gameUsername: 'bob', displayName: 'Bob', chatUserId: '7771' },
  answers: { why: 'I enjoy helping new players find their way.', age: 19, tz: 'EU' },
};

export const intakeResponseExample = {
  data: {
    submission: {
      id: SUBMISSION_ID,
      formId: FORM_ID,
      formName: 'Moderator application',
      status: 'submitted',
      environment: 'live',
      applicant: { gameUserId: '2001', gameUsername: 'bob', displayName: 'Bob', chatUserId: '7771' },
      score: null,
      createdAt: '2026-03-11T12:00:00.000Z',
      reviewedAt: null,
      decidedAt: null,
    },
    commandId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    eventId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
  },
  meta,
};

export const applicantSubmissionsExample = {
  data: {
    submissions: [
      {
        id: SUBMISSION_ID,
        formId: FORM_ID,
        formName: 'Moderator application',
        status: 'rejected',
        createdAt: '2026-02-01T09:30:00.000Z',
        decidedAt: '2026-02-03T18:00:00.000Z',
      },
    ],
  },
  meta,
};

export const GAME_USER_ID = '2001';
