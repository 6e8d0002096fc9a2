import { NOW, STAFF, type Samples } from '../../../db/samples.ts';
import * as sync from './repository.ts';

export const samples = {
  claimDueChanges: (db, store) =>
    sync.claimDueChanges(store, { now: NOW, limit: 20, leaseMs: 60_000, owner: 'rank_sync_1', calls: { max: 300, windowMs: 60_000 } }),
  recordSyncOutcome: (db) =>
    sync.recordSyncOutcome(db, { id: 'change-1', owner: 'rank_sync_1', status: 'applied', attempts: 1, lastError: null, at: NOW, nextAttemptAt: NOW }),
  releaseChanges: (db, store) => sync.releaseChanges(store.write, ['change-1'], 'rank_sync_1'),
  syncBacklog: (db) => sync.syncBacklog(db),
  failPendingChanges: (db) => sync.failPendingChanges(db, [STAFF], '{"status":null,"code":"erased","message":"erased"}', NOW),
} satisfies Samples<typeof sync>;
