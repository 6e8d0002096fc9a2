import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/types.js';
import { completeStaleShifts } from './repository.js';
import { staleBefore } from './rules.js';

export { sweepIntervalMs } from './rules.js';

export interface ShiftSweepDeps {
  readonly db: Executor;
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

/**
 * Completes every active shift that nothing was received for in more than SHIFT_TIMEOUT_SECONDS, as of its last
 * heartbeat (`endReason` `heartbeat_timeout`). One conditional UPDATE: safe when several instances sweep at once.
 * Returns how many shifts it completed.
 */
export async function sweepTimedOutShifts({ db, clock, config }: ShiftSweepDeps): Promise<number> {
  return completeStaleShifts(db, staleBefore(clock.now(), config.shiftTimeoutSeconds));
}
