import type { Environment } from '../../../shared/actor.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { Config } from '../../../shared/config.ts';
import type { Executor } from '../../../db/types.ts';
import { liveShift, staleBefore } from './rules.ts';

export interface LiveShiftCountDeps {
  readonly db: Executor;
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

/** Active shifts that have not timed out (what the live list shows), counted per environment across workspaces. */
export function createLiveShiftCounter({ db, clock, config }: LiveShiftCountDeps) {
  return async function countLiveShifts(): Promise<Partial<Record<Environment, number>>> {
    const rows = await db
      .selectFrom('shifts')
      .select(['environment', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where(liveShift(staleBefore(clock.now(), config.shiftTimeoutSeconds), 'scan'))
      .groupBy('environment')
      .execute();
    const counts: Partial<Record<Environment, number>> = {};
    for (const row of rows) {
      counts[row.environment] = Number(row.n);
    }
    return counts;
  };
}
