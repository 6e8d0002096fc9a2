/**
 * Idempotency as a service of its own: routes hand it a call (who, which key, what request) and an operation,
 * and it decides replay, refusal or execution. It knows the store, never HTTP or a feature.
 *
 * For every write that takes an Idempotency-Key, whichever path it takes:
 * - the operation and its stored response commit together: no effect without its stored result;
 * - a 4xx outcome is stored too (replayed as is); a 5xx outcome keeps nothing, so the client may retry;
 * - a concurrent duplicate sees 409 while the first request is in flight.
 */
import type { Clock } from '../clock.ts';
import type { Store } from '../db/store.ts';
import type { FusedWriteRun } from './fused-write.ts';
import type { IdempotentCall } from './identity.ts';
import type { ErrorResponse, IdempotentOperation, IdempotentOutcome } from './operation.ts';
import { purgeExpiredRecords } from './records.ts';
import { postgresStrategy } from './postgres.ts';
import { sqliteStrategy } from './sqlite.ts';
import type { AnyFusedRun } from './strategy.ts';

export { defineFusedWrite, type FusedEffect, type FusedCondition, type FusedWrite, type FusedWriteRun } from './fused-write.ts';
export { advisoryLockKey, canonicalJson, fingerprintOf, validateIdempotencyKey, type IdempotentCall } from './identity.ts';
export type {
  ErrorResponse,
  IdempotentOperation,
  IdempotentOutcome,
  OperationResult,
  RefusalAfterWrites,
} from './operation.ts';
export { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_RETENTION_MS, purgeExpiredRecords, type StoredResponse } from './records.ts';

export interface Idempotency {
  /** Runs `operation` under the call's key, or replays or refuses as the key's record says. */
  run(call: IdempotentCall, operation: IdempotentOperation): Promise<IdempotentOutcome>;
  /**
   * Applies a fused write under the call's key if it can (see fused-write.ts); null when it did not, leaving
   * everything as it was: the caller then runs the full operation, which replays, refuses or explains.
   */
  tryFused<P extends Record<string, unknown>, C extends Record<string, unknown>>(
    call: IdempotentCall,
    run: FusedWriteRun<P, C>,
  ): Promise<IdempotentOutcome | null>;
  /** Deletes results past their retention; returns how many. */
  purgeExpired(): Promise<number>;
}

export interface IdempotencyDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** How a refusal is stored and answered (status and error body). */
  readonly errorResponse: ErrorResponse;
  /** False turns fused writes off: every write runs its full operation (for tests that compare both paths). */
  readonly fusedWrites?: boolean;
}

export function createIdempotency({ store, clock, errorResponse, fusedWrites = true }: IdempotencyDeps): Idempotency {
  const strategy =
    store.dialect === 'sqlite' ? sqliteStrategy(store, clock, errorResponse) : postgresStrategy(store, clock, errorResponse);
  return {
    run: strategy.run,
    tryFused: fusedWrites
      ? (call, run) => strategy.tryFused(call, run as unknown as AnyFusedRun)
      : () => Promise.resolve(null),
    purgeExpired: () => purgeExpiredRecords(store.db, clock),
  };
}
