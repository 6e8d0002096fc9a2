import { NOW, STAFF, type Samples } from '../../db/samples.ts';
import * as erasure from './repository.ts';

export const samples = {
  findStaff: (db) => erasure.findStaff(db, '1001'),
  findSubmissionCandidates: (db) => erasure.findSubmissionCandidates(db, '1001', ['"gameUserId":"1001"']),
  anonymiseStaff: (db) => erasure.anonymiseStaff(db, STAFF, `erased-${STAFF}`),
  findNoticeIds: (db) => erasure.findNoticeIds(db, [STAFF]),
  replaceNoticeTexts: (db) => erasure.replaceNoticeTexts(db, [STAFF], 'erased'),
  eraseSubmission: (db) => erasure.eraseSubmission(db, 'submission-1', { applicant: '{"gameUserId":null}', answers: '{}' }),
  findCommandCopies: (db) => erasure.findCommandCopies(db, ['submission-1'], ['"gameUserId":"1001"']),
  findEventCopies: (db) => erasure.findEventCopies(db, ['command-1'], ['"gameUserId":"1001"']),
  findWebhookCopies: (db) => erasure.findWebhookCopies(db, ['1001', 'submission-1']),
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
