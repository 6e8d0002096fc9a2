import { NOW, type Samples } from '../../db/samples.ts';
import * as retention from './repository.ts';

const CUTOFF = NOW - 180 * 24 * 3_600_000;

export const samples = {
  deleteAttemptsBefore: (db) => retention.deleteAttemptsBefore(db, CUTOFF, 500),
  deleteDeliveriesBefore: (db) => retention.deleteDeliveriesBefore(db, CUTOFF, 500),
  deleteWebhookEventsBefore: (db) => retention.deleteWebhookEventsBefore(db, CUTOFF, 500),
  deleteEventsBefore: (db) => retention.deleteEventsBefore(db, CUTOFF, 500),
  deleteCommandsBefore: (db) => retention.deleteCommandsBefore(db, CUTOFF, 500),
  deleteSignInCodesBefore: (db) => retention.deleteSignInCodesBefore(db, CUTOFF, 500),
} satisfies Samples<typeof retention>;
