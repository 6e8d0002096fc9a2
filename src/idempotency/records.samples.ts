import { CREDENTIAL, noQuery, NOW, RESULT, type Samples } from '../db/samples.ts';
import { credentialHolds } from '../keys/api-key.ts';
import * as records from './records.ts';

export const samples = {
  reusedKey: noQuery('makes an error'),
  keyInProgress: noQuery('makes an error'),
  idempotencyKeyLock: noQuery('a fragment of the statements that take the key (takeKey, the known heartbeat)'),
  takeKey: (db) =>
    db.transaction().execute(async (trx) => {
      await records.takeKey(trx, RESULT.scope, RESULT.key, 'fingerprint', NOW).catch(() => null);
      // With a cached key's credential as the call's precondition (the write pipeline's).
      const precondition = (now: number) => credentialHolds(CREDENTIAL, now);
      return records.takeKey(trx, RESULT.scope, RESULT.key, 'fingerprint', NOW, precondition).catch(() => null);
    }),
  storeResult: (db) => db.transaction().execute((trx) => records.storeResult(trx, RESULT)),
  purgeExpiredRecords: (db) => records.purgeExpiredRecords(db, { now: () => NOW }, 1000),
} satisfies Samples<typeof records>;
