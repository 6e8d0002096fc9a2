/**
 * A shift's status: `active` until it is completed (by its stop, its server's stop, or the timeout). Queries
 * write it as a literal, never a bound value, so that both stores match the predicate of the partial indexes of
 * active shifts (`shifts_one_active`, `shifts_active_by_start`; src/db/migrations/20261121_0001_initial.ts).
 */
import { sql } from 'kysely';

export type ShiftStatus = 'active' | 'completed';

/** `status = ACTIVE` in a Kysely query. */
export const ACTIVE = sql.lit<ShiftStatus>('active');
export const COMPLETED = sql.lit<ShiftStatus>('completed');

/** Whether a shift row is active (live or timed out). */
export function isActive(shift: { readonly status: string }): boolean {
  return shift.status === 'active';
}
