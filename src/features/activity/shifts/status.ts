/**
 * A shift's status, spelled here once: `active` until it is completed (by its stop, its server's stop, or the
 * timeout). Kysely queries write it as a literal (ACTIVE, COMPLETED), never a bound value, so that both stores
 * match the predicates of the partial indexes of shifts by status (src/db/migrations/20261121_0001_initial.ts);
 * `sql` templates write it in their text. Liveness (a live shift, a timed-out one) is in rules.ts.
 */
import { sql } from 'kysely';

export const SHIFT_STATUS = { active: 'active', completed: 'completed' } as const;

export const ACTIVE = sql.lit(SHIFT_STATUS.active);
export const COMPLETED = sql.lit(SHIFT_STATUS.completed);

/** Whether a shift is active (live or timed out). */
export function isActive(shift: { readonly status: string }): boolean {
  return shift.status === SHIFT_STATUS.active;
}

export function isCompleted(shift: { readonly status: string }): boolean {
  return shift.status === SHIFT_STATUS.completed;
}
