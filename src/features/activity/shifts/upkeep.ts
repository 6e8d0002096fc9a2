/**
 * The statements other modules run on the `shifts` table, which this module owns (docs/DATA.md): a document's
 * shift history (provisioning).
 */
import type { Executor, ShiftTable } from '../../../db/types.ts';

/** Inserts the shifts whose ids are new (one batch); returns the inserted ones. */
export async function insertShiftsUnlessExist(db: Executor, rows: readonly ShiftTable[]) {
  return db
    .insertInto('shifts')
    .values([...rows])
    .onConflict((oc) => oc.column('id').doNothing())
    .returning(['workspace_id', 'environment', 'staff_id', 'started_at', 'ended_at', 'last_heartbeat_at'])
    .execute();
}
