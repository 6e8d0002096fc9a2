import { NOW, WORKSPACE, type Samples } from '../db/samples.ts';
import * as webhooks from './upkeep.ts';

const CUTOFF = NOW - 180 * 24 * 3_600_000;

export const samples = {
  findWebhookCopies: {
    everywhere: (db) => webhooks.findWebhookCopies(db, ['1001', 'submission-1']),
    inWorkspace: (db) => webhooks.findWebhookCopies(db, ['1001', 'submission-1'], WORKSPACE),
  },
  setWebhookBody: (db) => webhooks.setWebhookBody(db, 'event-1', '{}'),
  findReceiverAnswers: (db) => webhooks.findReceiverAnswers(db, ['event-1']),
  clearDeliveryAnswer: (db) => webhooks.clearDeliveryAnswer(db, 'delivery-1'),
  clearAttemptAnswer: (db) => webhooks.clearAttemptAnswer(db, 'attempt-1'),
  deleteAttemptsBefore: (db) => webhooks.deleteAttemptsBefore(db, CUTOFF, 500),
  deleteDeliveriesBefore: (db) => webhooks.deleteDeliveriesBefore(db, CUTOFF, 500),
  deleteWebhookEventsBefore: (db) => webhooks.deleteWebhookEventsBefore(db, CUTOFF, 500),
} satisfies Samples<typeof webhooks>;
