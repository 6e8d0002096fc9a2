/**
 * Completed shifts as the activity totals record them: called by every completion in lifecycle.ts, in the
 * transaction of the change. Recording them locks the workspaces' rows and moves their activity version, which
 * invalidates their cached rankings (src/features/workspaces/rankings.ts) in the same statement.
 */
import type { Executor } from '../../db/types.ts';
import { applyCompletedShifts } from '../totals/service.ts';
import type { ShiftRow } from './repository.ts';

export async function recordCompletions(trx: Executor, shifts: readonly ShiftRow[]): Promise<void> {
  if (shifts.length === 0) return;
  await applyCompletedShifts(
    trx,
    shifts.map((row) => ({
      workspace_id: row.workspace_id,
      environment: row.environment,
      staff_id: row.staff_id,
      started_at: row.started_at,
      ended_at: row.ended_at ?? row.last_heartbeat_at,
    })),
  );
}
