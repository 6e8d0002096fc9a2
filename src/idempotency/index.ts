/**
 * Idempotency as a service of its own: the write pipeline of the routes hands it a call (who, which key, what
 * request) and an operation, and it decides replay, refusal or execution. It knows the store, never HTTP or a
 * feature.
 *
 * For every write that takes an Idempotency-Key, on both stores:
 * - the operation and its stored response commit together: no effect without its stored result;
 * - a 4xx outcome is stored too (replayed as is), without the operation's writes; a 5xx outcome keeps nothing,
 *   so the client may retry;
 * - a concurrent duplicate sees 409 while the first request is in flight.
 */
import type { Transaction } from 'kysely';
import type { Clock } from '../shared/clock.ts';
import { inSavepoint, savepoint } from '../db/compiled.ts';
import type { Store } from '../db/store.ts';
import type { Database } from '../db/types.ts';
import type { KeyCredential } from '../shared/actor.ts';
import { AppError, RefusalAfterWrites } from '../shared/errors.ts';
import { sha256Hex } from '../shared/ids.ts';
import {
  keyInProgress,
  purgeExpiredRecords,
  reusedKey,
  storeResult,
  takeKey,
  type StoredResponse,
  type StoredResult,
} from './records.ts';

export type { RefusalAfterWrites, StoredResponse, StoredResult };
export { IDEMPOTENCY_RETENTION_MS, purgeExpiredRecords } from './records.ts';

// ---------------------------------------------------------------------------------------------------------
// Request identity: what makes two requests "the same" under an Idempotency-Key. The key's own rules, the
// canonical form of a body, and the fingerprint stored with a result.
// ---------------------------------------------------------------------------------------------------------

const MAX_KEY_LENGTH = 255;
const KEY_RE = /^[\x20-\x7e]+$/;

/** One request under a key: its principal's scope, the key as sent, and what it asks. */
export interface IdempotentCall {
  readonly scope: string;
  readonly key: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly requestId: string;
  /**
   * The credential of a cached API key the call acts for, checked when its key is taken (see takeKey): `run`
   * throws PreconditionFailed, having done nothing, when it no longer holds.
   */
  readonly credential?: KeyCredential;
}

/** Stable JSON: the same object with keys in another order is the same request. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const object = value as Record<string, unknown>;
  // The default sort orders strings as compareText (src/shared/text.ts) does.
  const keys = Object.keys(object)
    .filter((k) => object[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`).join(',')}}`;
}

/** What is wrong with a key as sent, if anything. */
function keyProblem(raw: string | undefined): 'missing' | 'invalid' | null {
  if (raw === undefined || raw === '') return 'missing';
  return raw.length > MAX_KEY_LENGTH || !KEY_RE.test(raw) ? 'invalid' : null;
}

/** The key, or the 400 that a missing or malformed one is. */
export function validateIdempotencyKey(raw: string | undefined): string {
  const problem = keyProblem(raw);
  if (problem === 'missing') {
    throw new AppError('idempotency_key_required', 'The Idempotency-Key header is required for this operation.');
  }
  if (problem === 'invalid') {
    throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters.');
  }
  return raw as string;
}

/** The key when it is valid, else null (for a write that leaves the refusal to the full operation). */
function acceptableKey(raw: string | undefined): string | null {
  return keyProblem(raw) === null ? (raw as string) : null;
}

/** The request's fingerprint: method, path and canonical body. */
export function fingerprintOf(call: IdempotentCall): string {
  return sha256Hex(`${call.method.toUpperCase()} ${call.path}\n${canonicalJson(call.body)}`);
}

// ---------------------------------------------------------------------------------------------------------
// What an idempotent operation is and comes to
// ---------------------------------------------------------------------------------------------------------

/** What an operation comes to: its response, or a refusal after writes. */
export type OperationResult = StoredResponse | RefusalAfterWrites;

/** An idempotent operation: it runs in the transaction its result is stored in. */
export type IdempotentOperation = (trx: Transaction<Database>) => Promise<OperationResult>;

export interface IdempotentOutcome {
  readonly response: StoredResponse;
  readonly replayed: boolean;
}

/** How a refusal is answered (its status and error body): given by the HTTP layer, which alone knows statuses. */
export type ErrorResponse = (error: AppError, requestId: string) => StoredResponse;

/** The response an operation's result is. */
export function responseOf(result: OperationResult, requestId: string, errorResponse: ErrorResponse): StoredResponse {
  return result instanceof RefusalAfterWrites ? errorResponse(result.refusal, requestId) : result;
}

/** A thrown 4xx refusal becomes a stored response; anything else (a 5xx, a key in progress) is not kept. */
export function storableFailure(error: unknown, requestId: string, errorResponse: ErrorResponse): StoredResponse | null {
  if (!(error instanceof AppError) || error.code === 'idempotency_request_in_progress') return null;
  const response = errorResponse(error, requestId);
  return response.status >= 500 ? null : response;
}

// ---------------------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------------------

/**
 * A write whose response is known before it runs (a heartbeat answers with the instant it records), as the store
 * applies it together with its stored result, both or neither (see docs/ARCHITECTURE.md, "A heartbeat"). Each
 * says whether the change applied; when it did not, nothing is written.
 */
export interface KnownChange<Change> {
  /**
   * SQLite: the change, in the job of the group commit that stores `result` right after it. It must apply only
   * while no result is stored under the key (its statement checks; the process holds the key meanwhile).
   */
  apply(trx: Transaction<Database>, change: Change, result: StoredResult): Promise<boolean>;
  /**
   * PostgreSQL: the change and `result` stored in one statement (which may carry concurrent changes of other rows
   * and keys with theirs), outside any explicit transaction.
   */
  applyWithResult(change: Change, result: StoredResult): Promise<boolean>;
}

export interface Idempotency {
  /** Runs `operation` under the call's key, or replays or refuses as the key's record says. */
  run(call: IdempotentCall, operation: IdempotentOperation): Promise<IdempotentOutcome>;
  /**
   * Applies a known write's `change` with `response` stored under the call's key. Null when it did not apply,
   * nothing written (an unusable or held key, or the change did not apply): the caller then runs the full
   * operation, which replays, refuses or explains.
   */
  applyKnown<Change>(
    call: IdempotentCall,
    response: StoredResponse,
    known: KnownChange<Change>,
    change: Change,
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
 * rolled back and may simply run again. (A safety net: writers of several shifts lock them in one order,
 * src/features/activity/shifts/repository.ts lockShifts, so that they wait for each other instead of deadlocking.)
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
    const replay = await takeKey(trx, call.scope, key, fingerprint, now, call.credential);
    if (replay) return { response: replay, replayed: true };
    // Left open: the result is stored and the transaction commits next, which releases it.
    const outcome = await inSavepoint(trx, OPERATION_SAVEPOINT, operation, { release: false });
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

    async applyKnown(call, response, known, change) {
      const key = acceptableKey(call.key);
      // An invalid key, or one held by a request in flight: the full operation says why.
      if (key === null || inFlight?.isHeld(call.scope, key)) return null;
      const fingerprint = fingerprintOf(call);
      const result = resultOf(call, key, fingerprint, response, clock.now());
      const applied = inFlight
        ? await inFlight.holding(call.scope, key, fingerprint, () =>
            store.write(async (trx) => (await known.apply(trx, change, result)) && storeResult(trx, result)),
          )
        : await known.applyWithResult(change, result);
      return applied ? { response, replayed: false } : null;
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
