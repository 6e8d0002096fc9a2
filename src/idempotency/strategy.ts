/** What each store's idempotency strategy provides, and the values both bind for a fused write. */
import type { FusedWriteRun, RecordParams } from './fused-write.ts';
import type { IdempotentCall } from './identity.ts';
import type { IdempotentOperation, IdempotentOutcome } from './operation.ts';

export type AnyFusedRun = FusedWriteRun<Record<string, unknown>, Record<string, unknown>>;

export interface Strategy {
  /** Runs `operation` under the call's key, or replays or refuses as the key's record says. */
  run(call: IdempotentCall, operation: IdempotentOperation): Promise<IdempotentOutcome>;
  /** Applies the fused write under the call's key if it can; null when it did not, leaving everything as it was. */
  tryFused(call: IdempotentCall, run: AnyFusedRun): Promise<IdempotentOutcome | null>;
}

/** The values of a fused write run without its condition. */
export const NO_CONDITION: Record<string, never> = {};

/** The record's values a fused statement binds. */
export function recordParams(
  run: AnyFusedRun,
  call: IdempotentCall,
  key: string,
  fingerprint: string,
  now: number,
): RecordParams {
  return {
    recordScope: call.scope,
    recordKey: key,
    recordFingerprint: fingerprint,
    recordStatus: run.response.status,
    recordBody: JSON.stringify(run.response.body),
    recordRequestId: call.requestId,
    recordNow: now,
  };
}
