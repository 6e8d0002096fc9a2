/**
 * What an erasure does to rank changes (docs/ROBLOX.md): an erased staff member's pending changes end `failed`
 * with `lastError.code` `erased`, in the erasure's transaction, so no call about them reaches the group after.
 */
import type { Executor } from '../../db/types.ts';
import type { SyncError } from './rules.ts';
import { failPendingChanges } from './sync/repository.ts';

const ERASED: SyncError = { status: null, code: 'erased', message: 'The staff member was erased; the change was not synced.' };

/** Ends the staff members' pending changes `failed` (`erased`); returns their ids. */
export function failChangesOfErasedStaff(trx: Executor, staffIds: readonly string[], now: number): Promise<string[]> {
  return failPendingChanges(trx, staffIds, JSON.stringify(ERASED), now);
}
