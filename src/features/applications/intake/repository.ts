import { runStatement } from '../../../db/sql/index.ts';
import type { Executor, SubmissionTable } from '../../../db/types.ts';

/** What an applicant's submission to a form needs to know before it is inserted. */
export interface ApplicantOnForm {
  readonly formId: string;
  readonly environment: string;
  readonly gameUserId: string;
}

const applicantValues = (who: ApplicantOnForm): [string, string, string] => [who.formId, who.environment, who.gameUserId];

/** The applicant's submission to the form awaiting review (at most one: `submissions_one_pending`). */
export async function findPendingSubmission(db: Executor, who: ApplicantOnForm): Promise<string | undefined> {
  const [row] = await runStatement(db, 'findPendingSubmission', applicantValues(who));
  return row?.id;
}

/** When the applicant's latest rejection on the form was, if any (a provisioned rejection has no known time). */
export async function lastRejectionAt(db: Executor, who: ApplicantOnForm): Promise<number | null> {
  const [row] = await runStatement(db, 'findLastRejection', applicantValues(who));
  return row === undefined ? null : Number(row.rejected_at);
}

/**
 * Inserts the submission unless the applicant already has one awaiting review on the form: the partial unique
 * index decides, on both stores and across instances (a racing insert waits for the other to commit, then does
 * nothing). Returns whether this call inserted it.
 */
export async function insertSubmissionUnlessPending(db: Executor, row: SubmissionTable): Promise<boolean> {
  const inserted = await runStatement(db, 'insertSubmissionUnlessPending', [
    row.id,
    row.workspace_id,
    row.status,
    row.score,
    row.reviewer_notes,
    row.applicant,
    row.answers,
    row.created_at,
    row.reviewed_at,
    row.accepted_at,
    row.rejected_at,
    row.staff_profile_id,
    row.updated_at,
    row.form_id,
    row.environment,
    row.game_user_id,
  ]);
  return inserted.length === 1;
}

export interface ApplicantSubmissionRow {
  readonly id: string;
  readonly form_id: string | null;
  readonly form_name: string | null;
  readonly status: string;
  readonly created_at: number;
  readonly accepted_at: number | null;
  readonly rejected_at: number | null;
}

/** An applicant's latest submissions in one workspace and environment, newest first. */
export async function listApplicantSubmissions(
  db: Executor,
  workspaceId: string,
  environment: string,
  gameUserId: string,
  limit: number,
): Promise<ApplicantSubmissionRow[]> {
  return db
    .selectFrom('submissions as s')
    .leftJoin('application_forms as f', 'f.id', 's.form_id')
    .select(['s.id', 's.form_id', 'f.name as form_name', 's.status', 's.created_at', 's.accepted_at', 's.rejected_at'])
    .where('s.workspace_id', '=', workspaceId)
    .where('s.environment', '=', environment)
    .where('s.game_user_id', '=', gameUserId)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();
}
