/**
 * A workspace's ranks as other features show them (the console's `GET /v1/console/me`): names, order and whether
 * the API may give them; never a role id or the group's secrets. The ranks feature's shared read module.
 */
import type { Executor } from '../../db/types.ts';
import { findRanksInOrder } from './repository.ts';
import type { WorkspaceRank } from './schemas.ts';

/** Each workspace's ranks by `order` (a workspace without ranks is absent from the map). */
export async function ranksOfWorkspaces(db: Executor, workspaceIds: readonly string[]): Promise<Map<string, WorkspaceRank[]>> {
  const rows = await findRanksInOrder(db, workspaceIds);
  const ranks = new Map<string, WorkspaceRank[]>();
  for (const row of rows) {
    const list = ranks.get(row.workspace_id) ?? [];
    list.push({ name: row.name, order: row.rank_order, assignable: row.assignable !== 0 });
    ranks.set(row.workspace_id, list);
  }
  return ranks;
}
