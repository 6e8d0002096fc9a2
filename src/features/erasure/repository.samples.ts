import { NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as erasure from './repository.ts';

export const samples = {
  findStaff: {
    everywhere: (db) => erasure.findStaff(db, '1001'),
    inWorkspace: (db) => erasure.findStaff(db, '1001', WORKSPACE),
  },
  findSubmissionCandidates: {
    everywhere: (db) => erasure.findSubmissionCandidates(db, '1001', ['"gameUserId":"1001"']),
    inWorkspace: (db) => erasure.findSubmissionCandidates(db, '1001', ['"gameUserId":"1001"'], WORKSPACE),
  },
  anonymiseStaff: (db) => erasure.anonymiseStaff(db, STAFF, `erased-${STAFF}`),
  findNoticeIds: (db) => erasure.findNoticeIds(db, [STAFF]),
  replaceNoticeTexts: (db) => erasure.replaceNoticeTexts(db, [STAFF], 'erased'),
  eraseSubmission: (db) => erasure.eraseSubmission(db, 'submission-1', { applicant: '{"gameUserId":null}', answers: '{}' }),
  findCommandCopies: {
    everywhere: (db) => erasure.findCommandCopies(db, ['submission-1'], ['"gameUserId":"1001"']),
    inWorkspace: (db) => erasure.findCommandCopies(db, ['submission-1'], ['"gameUserId":"1001"'], WORKSPACE),
  },
  findEventCopies: {
    everywhere: (db) => erasure.findEventCopies(db, ['command-1'], ['"gameUserId":"1001"']),
    inWorkspace: (db) => erasure.findEventCopies(db, ['command-1'], ['"gameUserId":"1001"'], WORKSPACE),
  },
  findWebhookCopies: {
    everywhere: (db) => erasure.findWebhookCopies(db, ['1001', 'submission-1']),
    inWorkspace: (db) => erasure.findWebhookCopies(db, ['1001', 'submission-1'], WORKSPACE),
  },
  findResponseCopies: (db) => erasure.findResponseCopies(db, ['1001', 'submission-1']),
  setCommandPayload: (db) => erasure.setCommandPayload(db, 'command-1', '{}'),
  setEventPayload: (db) => erasure.setEventPayload(db, 'event-1', '{}'),
  setWebhookBody: (db) => erasure.setWebhookBody(db, 'event-1', '{}'),
  setResponseBody: (db) => erasure.setResponseBody(db, { scope: 'scope-1', key: 'key-1' }, '{}'),
  findReceiverAnswers: (db) => erasure.findReceiverAnswers(db, ['event-1']),
  clearDeliveryAnswer: (db) => erasure.clearDeliveryAnswer(db, 'delivery-1'),
  clearAttemptAnswer: (db) => erasure.clearAttemptAnswer(db, 'attempt-1'),
  insertErasure: (db) => erasure.insertErasure(db, { id: 'erasure-1', ranAt: NOW, changes: '{}' }),
} satisfies Samples<typeof erasure>;
