import type { Executor } from '../../db/types.ts';
import { bumpActivityVersion } from './workspace.ts';

/**
 * What the workspaces' reports rank. Report caches in every process and instance are keyed on the workspace's
 * activity version (src/features/activity/reports/ranking-cache.ts); a write that changes what is ranked (a shift
 * completed with its own end, staff created) invalidates them by calling `invalidate` in its own transaction.
 */
export const rankings = {
  /**
   * Invalidates the workspaces' cached rankings once the transaction commits. Call it as the last contended
   * write of the transaction: the workspace row lock is then never held while waiting for another lock.
   */
  invalidate(trx: Executor, workspaceIds: string | readonly string[]): Promise<void> {
    return bumpActivityVersion(trx, typeof workspaceIds === 'string' ? [workspaceIds] : workspaceIds);
  },
};
