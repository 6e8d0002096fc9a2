import { NOW, type Samples } from '../db/samples.ts';
import * as webhooks from './repository.ts';

export const samples = {
  claimDueDeliveries: (_db, store) =>
    webhooks.claimDueDeliveries(store, {
      now: NOW,
      limit: 16,
      leaseMs: 60_000,
      owner: 'instance-1',
      perEndpoint: 4,
      busy: new Map([['endpoint-1', 4]]),
    }),
  recordAttempts: (db, store) =>
    webhooks.recordAttempts(db, store.dialect, [
      {
        deliveryId: 'delivery-1',
        owner: 'instance-1',
        attempt: 1,
        startedAt: NOW,
        finishedAt: NOW + 120,
        durationMs: 120,
        status: 200,
        error: null,
        excerpt: 'ok',
        outcome: 'delivered',
        nextAttemptAt: NOW,
      },
    ]),
  bringDeliveriesForward: (db) => webhooks.bringDeliveriesForward(db, ['endpoint-1', 'endpoint-2'], NOW),
  keepProbeDue: (db) => webhooks.keepProbeDue(db, { endpointId: 'endpoint-1', dueBy: NOW + 60_000 }, NOW),
  releaseClaims: (_db, store) => webhooks.releaseClaims(store.write, ['delivery-1'], 'instance-1'),
  pendingBacklog: (db) => webhooks.pendingBacklog(db),
} satisfies Samples<typeof webhooks>;
