import type { Clock } from '../../../shared/clock.ts';
import type { Config } from '../../../shared/config.ts';
import type { Store } from '../../../db/store.ts';
import { timeOutShifts } from './lifecycle.ts';
import { staleBefore } from './rules.ts';

export { sweepIntervalMs } from './rules.ts';

/** The most shifts one sweep transaction completes. */
const SWEEP_CHUNK = 500;

export interface ShiftSweepDeps {
  /** Runs each chunk in a transaction of its own (the store's writer). */
  readonly write: Store['write'];
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
  /** The most shifts one transaction completes (default SWEEP_CHUNK). */
  readonly chunk?: number;
}

/**
 * Completes every active shift that nothing was received for in more than SHIFT_TIMEOUT_SECONDS, as of its last
 * heartbeat (`endReason` `heartbeat_timeout`), in transactions of at most SWEEP_CHUNK shifts (timeOutShifts).
 * Each chunk is one conditional UPDATE: safe when several instances sweep at once. Returns how many shifts it
 * completed.
 */
export async function sweepTimedOutShifts({ write, clock, config, chunk = SWEEP_CHUNK }: ShiftSweepDeps): Promise<number> {
  const now = clock.now();
  const cutoff = staleBefore(now, config.shiftTimeoutSeconds);
  let completed = 0;
  for (;;) {
    const rows = await write((trx) => timeOutShifts(trx, cutoff, chunk, now));
    completed += rows.length;
    // A short chunk: nothing more is stale (or another instance's sweep is completing the rest).
    if (rows.length < chunk) return completed;
  }
}
