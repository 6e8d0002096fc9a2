import type { Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import { ParamLayers } from '../db/prepared.ts';
import { inSavepoint, savepoint, type SyncStatements } from '../db/savepoint.ts';
import type { Store } from '../db/store.ts';
import type { Database } from '../db/types.ts';
import { statementsFor } from './fused-write.ts';
import { acceptableKey, fingerprintOf, validateIdempotencyKey, type IdempotentCall } from './identity.ts';
import {
  responseOf,
  storableFailure,
  type ErrorResponse,
  type IdempotentOperation,
  type IdempotentOutcome,
} from './operation.ts';
import {
  completedRecord,
  findRecord,
  judgeExisting,
  keyInProgress,
  reusedKey,
  storeCompleted,
  upsertCompletedRecord,
} from './records.ts';
import { NO_CONDITION, recordParams, type AnyFusedRun, type Strategy } from './strategy.ts';

const OPERATION_SAVEPOINT = savepoint('idempotent_operation');

/**
 * SQLite (one writer): keys in flight are tracked in memory, so a duplicate gets 409 at once; the lookup, the
 * operation and the stored result run as one job of the store's group commit, the operation inside a savepoint
 * of its own (so its refusal is stored without its writes).
 */
export function sqliteStrategy(store: Store, clock: Clock, errorResponse: ErrorResponse): Strategy {
  const { db, writeSync } = store;
  if (!writeSync) throw new Error('the embedded store runs fused writes on its own connection (Store.writeSync)');
  const inFlight = new Map<string, string>();

  /**
   * The fused write's effect, then (when it applied) its stored result: one job of the group commit, run
   * synchronously on the store's connection (both statements are known before it runs).
   */
  function fusedJob(
    connection: SyncStatements,
    call: IdempotentCall,
    key: string,
    fingerprint: string,
    run: AnyFusedRun,
  ): IdempotentOutcome | null {
    const now = clock.now();
    const record = recordParams(run, call, key, fingerprint, now);
    const effect = statementsFor(run).sqlite;
    const values = ParamLayers.of(run.params, run.conditionParams ?? NO_CONDITION, record);
    if (connection.all(effect.compile(db, values)).length === 0) return null;
    connection.run(
      upsertCompletedRecord.compile(db, {
        scope: record.recordScope,
        key,
        fingerprint,
        status: record.recordStatus,
        body: record.recordBody,
        requestId: record.recordRequestId,
        now,
      }),
    );
    return { response: run.response, replayed: false };
  }

  async function job(
    trx: Transaction<Database>,
    call: IdempotentCall,
    key: string,
    fingerprint: string,
    operation: IdempotentOperation,
  ): Promise<IdempotentOutcome> {
    const now = clock.now();
    const existing = await findRecord(trx, call.scope, key);
    if (existing) {
      const verdict = judgeExisting(existing, fingerprint, now);
      if (verdict !== 'take-over') return { response: verdict, replayed: true };
    }
    const outcome = await inSavepoint(trx, OPERATION_SAVEPOINT, operation);
    let response;
    if (outcome.ok) {
      response = responseOf(outcome.value, call.requestId, errorResponse);
    } else {
      const failure = storableFailure(outcome.error, call.requestId, errorResponse);
      if (!failure) throw outcome.error;
      response = failure;
    }
    await storeCompleted(trx, completedRecord(call, key, fingerprint, response, now));
    return { response, replayed: false };
  }

  const flightKeyOf = (call: IdempotentCall, key: string) => `${call.scope}\n${key}`;

  /** Runs `work` holding the key in flight (a duplicate meanwhile is refused: 409, or 422 for another request). */
  async function holding<T>(call: IdempotentCall, key: string, fingerprint: string, work: () => Promise<T>) {
    const flightKey = flightKeyOf(call, key);
    const flying = inFlight.get(flightKey);
    if (flying !== undefined) throw flying === fingerprint ? keyInProgress() : reusedKey();
    inFlight.set(flightKey, fingerprint);
    try {
      return await work();
    } finally {
      inFlight.delete(flightKey);
    }
  }

  return {
    run: async (call, operation) => {
      const key = validateIdempotencyKey(call.key);
      const fingerprint = fingerprintOf(call);
      return holding(call, key, fingerprint, () => store.write((trx) => job(trx, call, key, fingerprint, operation)));
    },
    tryFused: async (call, run) => {
      const key = acceptableKey(call.key);
      if (key === null || inFlight.has(flightKeyOf(call, key))) return null; // the full operation says why
      const fingerprint = fingerprintOf(call);
      return holding(call, key, fingerprint, () =>
        writeSync((connection) => fusedJob(connection, call, key, fingerprint, run)),
      );
    },
  };
}
