/**
 * The statements other modules run on the `submissions` table, which this module owns (docs/DATA.md): the
 * document's sample submissions (provisioning) and a person's data erased.
 */
import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../db/types.ts';
import { upsertRows, type Upsert } from '../../db/upsert.ts';

// Submissions are records, not configuration: inserted when absent, never overwritten.
const SUBMISSIONS: Upsert<'submissions'> = { table: 'submissions', conflict: ['id'], update: [] };

/** Inserts a document's submissions that are not there yet; returns how many. */
export function insertSubmissionsUnlessExist(db: Executor, rows: readonly Insertable<Database['submissions']>[]): Promise<number> {
  return upsertRows(db, SUBMISSIONS, rows);
}

/** `like` pattern for text containing `value`; the values searched for (JSON around digits, uuids) hold no wildcard. */
const containing = (value: string): string => `%${value}%`;

export interface SubmissionCandidate {
  readonly id: string;
  readonly game_user_id: string | null;
  readonly applicant: string;
  readonly answers: string;
}

/** Submissions whose `game_user_id` is the id, or whose applicant document holds one of `needles` (judged by the caller). */
export async function findSubmissionCandidates(
  db: Executor,
  gameUserId: string,
  needles: readonly string[],
  workspaceId: string | null = null,
): Promise<SubmissionCandidate[]> {
  return db
    .selectFrom('submissions')
    .select(['id', 'game_user_id', 'applicant', 'answers'])
    .where((eb) =>
      eb.or([eb('game_user_id', '=', gameUserId), ...needles.map((needle) => eb('applicant', 'like', containing(needle)))]),
    )
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
}

/** Empties a submission's personal data; its status, score, times and links stay. */
export async function eraseSubmission(
  db: Executor,
  id: string,
  erased: { readonly applicant: string; readonly answers: string },
): Promise<void> {
  await db
    .updateTable('submissions')
    .set({ applicant: erased.applicant, answers: erased.answers, reviewer_notes: null, game_user_id: null })
    .where('id', '=', id)
    .execute();
}
