/**
 * A staff member's rank history as other features read it (the console's staff page): the ranks feature's
 * shared read module.
 */
import type { Executor } from '../../db/types.ts';
import { findRankChanges } from './repository.ts';
import type { RankChange } from './schemas.ts';
import { rankChangeView } from './views.ts';

/** The staff member's last `limit` rank changes, newest first (an empty list without any). */
export async function lastRankChanges(db: Executor, staffId: string, limit: number): Promise<RankChange[]> {
  const rows = await findRankChanges(db, staffId, limit);
  return rows.map(rankChangeView);
}
