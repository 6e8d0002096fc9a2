/**
 * The entry rank of an acceptance (docs/ROBLOX.md, "Entry rank"): a staff profile an acceptance creates gets its
 * form's `entryRank`, recorded as a change from null by the deciding member and synced like any other. Called
 * by the applications feature in the acceptance's transaction.
 */
import type { Executor } from '../../db/types.ts';
import type { RequestContext } from '../../journal/journal.ts';
import { recordRankChange } from './record.ts';
import { findEntryRank, findStaffLocking } from './repository.ts';

export interface EntryRankInput {
  readonly submissionId: string;
  readonly staffId: string;
  /** The deciding member's user id. */
  readonly decidedBy: string;
  readonly request: RequestContext;
  readonly now: number;
}

/** Gives the new staff profile its form's entry rank; nothing without one. */
export async function giveEntryRank(trx: Executor, input: EntryRankInput): Promise<void> {
  const rank = await findEntryRank(trx, input.submissionId);
  if (rank === null) return;
  const staff = await findStaffLocking(trx, input.staffId);
  if (!staff) return;
  await recordRankChange(trx, {
    staff,
    toRank: rank,
    reason: null,
    changedBy: input.decidedBy,
    request: input.request,
    commandType: 'entry_rank_given',
    now: input.now,
  });
}
