import { EVENT, noQuery, WORKSPACE, type Samples } from '../db/samples.ts';
import * as outbox from './outbox.ts';

export const samples = {
  subscribersOf: noQuery('reads the endpoints it is given'),
  enabledEndpoints: noQuery('a read its callers send: findSubscribers, the journal (writeThenRead)'),
  findSubscribers: (db) => outbox.findSubscribers(db, [WORKSPACE], 'activity.shift.ended'),
  writeWebhookEvents: (db) => outbox.writeWebhookEvents(db, [EVENT], new Map([[WORKSPACE, ['endpoint-1', 'endpoint-2']]])),
  enqueueWebhookEvent: (db) =>
    outbox.enqueueWebhookEvent(db, EVENT, [{ id: 'endpoint-1', workspace_id: WORKSPACE, events: JSON.stringify(['*']) }]),
} satisfies Samples<typeof outbox>;
