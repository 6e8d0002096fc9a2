/**
 * The erasure's own table (docs/OPERATING.md, "Operating it", "Erasure"): each erasure that ran, with its counts
 * only. The person's rows are found and scrubbed through the modules that own them (docs/DATA.md).
 */
import type { Executor } from '../../db/types.ts';

/** Records that an erasure ran, with its counts only. */
export async function insertErasure(db: Executor, erasure: { id: string; ranAt: number; changes: string }): Promise<void> {
  await db.insertInto('erasures').values({ id: erasure.id, ran_at: erasure.ranAt, changes: erasure.changes }).execute();
}
