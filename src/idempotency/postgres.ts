import { sql, type Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import { ParamLayers, ParamSource } from '../db/prepared.ts';
import type { Store } from '../db/store.ts';
import type { Database, IdempotencyRecordTable } from '../db/types.ts';
import { FusedBatcher, type BatchRunner } from './fused-batcher.ts';
import {
  postgresBatch,
  statementsFor,
  type FusedStatements,
  type LockParams,
  type PostgresFusedParams,
} from './fused-write.ts';
import { acceptableKey, advisoryLockKey, fingerprintOf, validateIdempotencyKey, type IdempotentCall } from './identity.ts';
import { responseOf, storableFailure, type ErrorResponse, type IdempotentOperation, type IdempotentOutcome } from './operation.ts';
import {
  completedRecord,
  judgeExisting,
  keyInProgress,
  storeCompletedUnlessReplayable,
  type StoredResponse,
} from './records.ts';
import { NO_CONDITION, recordParams, type AnyFusedRun, type Strategy } from './strategy.ts';

/** The most fused writes one statement applies. */
const MAX_BATCH = 32;
/**
 * Fused statements in flight at once per instance: two keep the database busy while the gateway answers the
 * previous batch. (Measured on the reference machine with 32 clients: one or two in flight gave about 3,300
 * heartbeats a second, eight gave 2,300, and a statement per heartbeat 1,100.)
 */
const BATCH_CONCURRENCY = 2;

/** A batch statement's values: item `i`'s placeholders are named `i:name` (see batchParamName). */
class BatchValues extends ParamSource<Record<string, unknown>> {
  private readonly items: readonly ParamSource<unknown>[];
  private readonly names: Map<string, readonly [number, string]>;
  constructor(items: readonly ParamSource<unknown>[], names: Map<string, readonly [number, string]>) {
    super();
    this.items = items;
    this.names = names;
  }

  get(name: PropertyKey): unknown {
    const text = String(name);
    let split = this.names.get(text);
    if (!split) {
      const colon = text.indexOf(':');
      split = [Number(text.slice(0, colon)), text.slice(colon + 1)];
      this.names.set(text, split);
    }
    return this.items[split[0]]?.get(split[1]);
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** An error thrown by the operation itself (as opposed to the idempotency checks around it). */
class OperationFailed extends Error {
  readonly failure: unknown;
  constructor(failure: unknown) {
    super('idempotent operation failed');
    this.failure = failure;
  }
}

/**
 * Thrown (and so rolling back) when storing a result finds that a duplicate request completed the key after this
 * one's first read: the request runs again and replays that result.
 */
class KeyCompletedMeanwhile extends Error {
  constructor() {
    super('the idempotency key was completed by a concurrent request');
  }
}

/** Attempts of an operation whose transaction was rolled back to run again (see mayRunAgain). */
const MAX_ATTEMPTS = 3;

/**
 * deadlock_detected, serialization_failure, or a key completed meanwhile: the transaction was rolled back and may
 * simply run again.
 */
function mayRunAgain(error: unknown): boolean {
  if (error instanceof KeyCompletedMeanwhile) return true;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '40P01' || code === '40001';
}

/**
 * PostgreSQL (several instances, many connections): one transaction holds a transaction-scoped advisory lock on
 * the key, looks for a stored result, runs the operation and stores its result, and commits once. A duplicate on
 * any instance that finds the lock taken answers 409 at once; one that comes after the commit finds the result.
 * The lock belongs to the transaction, so an instance that dies mid-request leaves nothing behind: the database
 * ends its session and releases the lock, and a retry runs at once.
 */
export function postgresStrategy(store: Store, clock: Clock, errorResponse: ErrorResponse): Strategy {
  const { db } = store;

  /**
   * A stored result to replay, or null when this request is to run, holding the key's lock. One statement tries
   * the lock and reads the record: a completed record is final, so it is replayed (or refused as reused) whether
   * or not the lock was free, and concurrent replays never wait for each other. That read's snapshot predates the
   * lock: a duplicate that committed just before the lock was granted is not in it, and storing this request's
   * result then finds that duplicate's record instead (see storeResult).
   */
  async function storedResult(
    trx: Transaction<Database>,
    call: IdempotentCall,
    key: string,
    fingerprint: string,
    now: number,
  ): Promise<StoredResponse | null> {
    const { rows } = await sql<{ locked: boolean } & Partial<IdempotencyRecordTable>>`
      select pg_try_advisory_xact_lock(${advisoryLockKey(call.scope, key)}::bigint) as locked, r.*
      from (select 1) as one
      left join idempotency_records as r on r.scope = ${call.scope} and r.key = ${key}
    `.execute(trx);
    const first = rows[0];
    const seen = first?.fingerprint == null ? undefined : (first as IdempotencyRecordTable);
    if (seen) {
      const verdict = judgeExisting(seen, fingerprint, now);
      if (verdict !== 'take-over') return verdict;
    }
    if (first?.locked !== true) throw keyInProgress();
    return null;
  }

  /**
   * Stores the request's result in its transaction. When the key turns out to have a replayable record that the
   * first read could not see, nothing is stored and KeyCompletedMeanwhile rolls the transaction back; `run` then
   * runs the request again, and its first read replays (or refuses) that record.
   */
  async function storeResult(
    trx: Transaction<Database>,
    call: IdempotentCall,
    key: string,
    fingerprint: string,
    response: StoredResponse,
    now: number,
  ): Promise<void> {
    const record = completedRecord(call, key, fingerprint, response, now);
    if (!(await storeCompletedUnlessReplayable(trx, record))) throw new KeyCompletedMeanwhile();
  }

  const batchNames = new Map<string, readonly [number, string]>();
  /** Applies fused writes alone or, when several are waiting, together (see FusedBatcher). */
  const runner: BatchRunner<FusedStatements, ParamSource<PostgresFusedParams>> = {
    together: async (statements, items) => {
      const rows = await postgresBatch(statements, items.length).rows(db, new BatchValues(items, batchNames));
      return new Set(rows.map((row) => row.item));
    },
    alone: async (statements, item) => {
      try {
        return (await statements.postgres.rows(db, item)).length > 0;
      } catch (error) {
        if (isUniqueViolation(error)) return false; // the key was completed meanwhile: the full path replays it
        throw error;
      }
    },
  };
  const batcher = new FusedBatcher(runner, { maxBatch: MAX_BATCH, concurrency: BATCH_CONCURRENCY });

  /**
   * The fused write's effect and its stored result, committed in one statement (so both or neither), alone or
   * together with other fused writes waiting at the time.
   */
  async function tryFused(call: IdempotentCall, run: AnyFusedRun) {
    const key = acceptableKey(call.key);
    if (key === null) return null;
    const record = recordParams(run, call, key, fingerprintOf(call), clock.now());
    const lock: LockParams = { recordLock: advisoryLockKey(call.scope, key) };
    const applied = await batcher.apply({
      shape: statementsFor(run),
      values: ParamLayers.of(run.params, run.conditionParams ?? NO_CONDITION, record, lock) as ParamSource<PostgresFusedParams>,
      row: run.row,
      key: lock.recordLock,
    });
    return applied ? { response: run.response, replayed: false } : null;
  }

  /**
   * Runs the operation; when PostgreSQL aborts its transaction to break a deadlock or a serialization conflict
   * with a concurrent one, or a duplicate completed the key meanwhile, nothing of it committed, so it runs again,
   * up to MAX_ATTEMPTS times, before the error is answered (500). A safety net: writers of several rows lock them
   * in one order (db/row-locks.ts), so that they wait for each other instead of deadlocking.
   */
  async function run(call: IdempotentCall, operation: IdempotentOperation): Promise<IdempotentOutcome> {
    const key = validateIdempotencyKey(call.key);
    const fingerprint = fingerprintOf(call);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await runOnce(call, operation, key, fingerprint);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !mayRunAgain(error)) throw error;
      }
    }
  }

  async function runOnce(
    call: IdempotentCall,
    operation: IdempotentOperation,
    key: string,
    fingerprint: string,
  ): Promise<IdempotentOutcome> {
    try {
      return await store.write(async (trx) => {
        const now = clock.now();
        const replay = await storedResult(trx, call, key, fingerprint, now);
        if (replay) return { response: replay, replayed: true };
        let response: StoredResponse;
        try {
          response = responseOf(await operation(trx), call.requestId, errorResponse);
        } catch (error) {
          throw new OperationFailed(error);
        }
        await storeResult(trx, call, key, fingerprint, response, now);
        return { response, replayed: false };
      });
    } catch (error) {
      if (!(error instanceof OperationFailed)) throw error;
      const failure = storableFailure(error.failure, call.requestId, errorResponse);
      if (!failure) throw error.failure;
      // The operation's writes went with the rolled-back transaction; its 4xx outcome is stored on its own,
      // unless a duplicate completed the key in between (its result is then the key's result).
      return store.write(async (trx) => {
        const now = clock.now();
        const replay = await storedResult(trx, call, key, fingerprint, now);
        if (replay) return { response: replay, replayed: true };
        await storeResult(trx, call, key, fingerprint, failure, now);
        return { response: failure, replayed: false };
      });
    }
  }

  return { run, tryFused };
}
