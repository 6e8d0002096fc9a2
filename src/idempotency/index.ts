/**
 * Idempotency as a service of its own: routes hand it a call (who, which key, what request) and an operation,
 * and it decides replay, refusal or execution. It knows the store, never HTTP or a feature.
 *
 * For every write that takes an Idempotency-Key, on both stores:
 * - the operation and its stored response commit together: no effect without its stored result;
 * - a 4xx outcome is stored too (replayed as is), without the operation's writes; a 5xx outcome keeps nothing,
 *   so the client may retry;
 * - a concurrent duplicate sees 409 while the first request is in flight.
 */
import type { Clock } from '../clock.ts';
import { inSavepoint, savepoint } from '../db/savepoint.ts';
import type { Store } from '../db/store.ts';
import type { Database } from '../db/types.ts';
import type { Transaction } from 'kysely';
import { acceptableKey, fingerprintOf, validateIdempotencyKey, type IdempotentCall } from './identity.ts';
import {
  responseOf,
  storableFailure,
  type ErrorResponse,
  type IdempotentOperation,
  type IdempotentOutcome,
} from './operation.ts';
import {
  keyInProgress,
  purgeExpiredRecords,
  reusedKey,
  storeResult,
  takeKey,
  type StoredResponse,
  type StoredResult,
} from './records.ts';

export { canonicalJson, fingerprintOf, validateIdempotencyKey, type IdempotentCall } from './identity.ts';
export type {
  ErrorResponse,
  IdempotentOperation,
  IdempotentOutcome,
  OperationResult,
  RefusalAfterWrites,
} from './operation.ts';
export {
  IDEMPOTENCY_RETENTION_MS,
  purgeExpiredRecords,
  resultValues,
  storeResult,
  type StoredResponse,
  type StoredResult,
} from './records.ts';

export interface Idempotency {
  /** Runs `operation` under the call's key, or replays or refuses as the key's record says. */
  run(call: IdempotentCall, operation: IdempotentOperation): Promise<IdempotentOutcome>;
  /**
   * A write whose response is known before it runs (a heartbeat answers with the instant it records): `apply`
   * makes its change and stores `response` under the call's key, both or neither, and says whether it did (see
   * docs/ARCHITECTURE.md, "A heartbeat"). Null when it did not, nothing written: the caller then runs the full
   * operation, which replays, refuses or explains.
   */
  applyKnown(
    call: IdempotentCall,
    response: StoredResponse,
    apply: (result: StoredResult) => Promise<boolean>,
  ): Promise<IdempotentOutcome | null>;
  /** Deletes results past their retention; returns how many. */
  purgeExpired(): Promise<number>;
}

export interface IdempotencyDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** How a refusal is stored and answered (status and error body). */
  readonly errorResponse: ErrorResponse;
}

const OPERATION_SAVEPOINT = savepoint('idempotent_operation');

/** Attempts of a request whose transaction was rolled back to run again (see mayRunAgain). */
const MAX_ATTEMPTS = 3;

/**
 * Thrown (and so rolling back) when storing a result finds that a duplicate completed the key after this request
 * took it: the request runs again and replays that result.
 */
class KeyCompletedMeanwhile extends Error {
  constructor() {
    super('the idempotency key was completed by a concurrent request');
  }
}

/**
 * A key completed meanwhile, or PostgreSQL's deadlock_detected or serialization_failure: the transaction was
 * rolled back and may simply run again. (A safety net: writers of several rows lock them in one order,
 * src/db/row-locks.ts, so that they wait for each other instead of deadlocking.)
 */
function mayRunAgain(error: unknown): boolean {
  if (error instanceof KeyCompletedMeanwhile) return true;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '40P01' || code === '40001';
}

/**
 * A request's key is held while it runs, so a duplicate is refused at once. On PostgreSQL (many instances) the
 * database holds it: takeKey takes the key's transaction-scoped advisory lock, which a crashed instance's session
 * gives up with it. The embedded store has one writing process, which holds its keys here, by scope and key, with
 * the fingerprint of the request holding each: a duplicate then gets 409, another request under the key 422,
 * without waiting for the writer.
 */
class KeysInFlight {
  private readonly held = new Map<string, string>();

  isHeld(scope: string, key: string): boolean {
    return this.held.has(`${scope}\n${key}`);
  }

  async holding<T>(scope: string, key: string, fingerprint: string, work: () => Promise<T>): Promise<T> {
    const id = `${scope}\n${key}`;
    const holder = this.held.get(id);
    if (holder !== undefined) throw holder === fingerprint ? keyInProgress() : reusedKey();
    this.held.set(id, fingerprint);
    try {
      return await work();
    } finally {
      this.held.delete(id);
    }
  }
}

export function createIdempotency({ store, clock, errorResponse }: IdempotencyDeps): Idempotency {
  const inFlight = store.dialect === 'sqlite' ? new KeysInFlight() : null;
  const holding = <T>(scope: string, key: string, fingerprint: string, work: () => Promise<T>): Promise<T> =>
    inFlight ? inFlight.holding(scope, key, fingerprint, work) : work();

  /**
   * One attempt, in one transaction: take the key (replay, 422 or 409 as its record says), run the operation in a
   * savepoint (a refusal undoes its writes, and is stored in their place), and store the response with the key.
   */
  async function attempt(
    trx: Transaction<Database>,
    call: IdempotentCall,
    key: string,
    fingerprint: string,
    operation: IdempotentOperation,
  ): Promise<IdempotentOutcome> {
    const now = clock.now();
    const replay = await takeKey(trx, call.scope, key, fingerprint, now);
    if (replay) return { response: replay, replayed: true };
    const outcome = await inSavepoint(trx, OPERATION_SAVEPOINT, operation);
    let response: StoredResponse;
    if (outcome.ok) {
      response = responseOf(outcome.value, call.requestId, errorResponse);
    } else {
      const refusal = storableFailure(outcome.error, call.requestId, errorResponse);
      if (!refusal) throw outcome.error;
      response = refusal;
    }
    if (!(await storeResult(trx, resultOf(call, key, fingerprint, response, now)))) throw new KeyCompletedMeanwhile();
    return { response, replayed: false };
  }

  return {
    async run(call, operation) {
      const key = validateIdempotencyKey(call.key);
      const fingerprint = fingerprintOf(call);
      return holding(call.scope, key, fingerprint, async () => {
        for (let attempts = 1; ; attempts += 1) {
          try {
            return await store.write((trx) => attempt(trx, call, key, fingerprint, operation));
          } catch (error) {
            if (attempts >= MAX_ATTEMPTS || !mayRunAgain(error)) throw error;
          }
        }
      });
    },

    async applyKnown(call, response, apply) {
      const key = acceptableKey(call.key);
      // An invalid key, or one held by a request in flight: the full operation says why.
      if (key === null || inFlight?.isHeld(call.scope, key)) return null;
      const fingerprint = fingerprintOf(call);
      return holding(call.scope, key, fingerprint, async () => {
        const applied = await apply(resultOf(call, key, fingerprint, response, clock.now()));
        return applied ? { response, replayed: false } : null;
      });
    },

    purgeExpired: () => purgeExpiredRecords(store.db, clock),
  };
}

function resultOf(
  call: IdempotentCall,
  key: string,
  fingerprint: string,
  response: StoredResponse,
  now: number,
): StoredResult {
  return {
    scope: call.scope,
    key,
    fingerprint,
    status: response.status,
    body: JSON.stringify(response.body),
    requestId: call.requestId,
    now,
  };
}
