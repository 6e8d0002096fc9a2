import { CREDENTIAL, noQuery, NOW, RESULT, type Samples } from '../db/samples.ts';
import * as records from './records.ts';

export const samples = {
  reusedKey: noQuery('makes an error'),
  keyInProgress: noQuery('makes an error'),
  idempotencyKeyLock: noQuery('a fragment of the statements that take the key (takeKey, the known heartbeat)'),
  noStoredResult: noQuery('a fragment of the known heartbeat\'s statement, which shows it'),
  applyWithResults: noQuery('builds the known heartbeat\'s statement on PostgreSQL, which shows it (known-heartbeat.ts)'),
  takeKey: (db) =>
    db.transaction().execute(async (trx) => {
      await records.takeKey(trx, RESULT.scope, RESULT.key, 'fingerprint', NOW).catch(() => null);
      // With a cached key's credential to check (the write pipeline's).
      return records.takeKey(trx, RESULT.scope, RESULT.key, 'fingerprint', NOW, CREDENTIAL).catch(() => null);
    }),
  storeResult: (db) => db.transaction().execute((trx) => records.storeResult(trx, RESULT)),
  purgeExpiredRecords: (db) => records.purgeExpiredRecords(db, { now: () => NOW }, 1000),
} satisfies Samples<typeof records>;
