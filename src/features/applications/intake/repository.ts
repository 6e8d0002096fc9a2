import type { Insertable } from 'kysely';
import type { Executor, SubmissionTable } from '../../../db/types.ts';
import { PENDING_STATUSES } from '../rules.ts';

/** What an applicant's submission to a form needs to know before it is inserted. */
export interface ApplicantOnForm {
  readonly formId: string;
  readonly environment: string;
  readonly gameUserId: string;
}

/** The applicant's submissions to the form in the environment (index `submissions_applicant_form`). */
function applicantsOnForm(db: Executor, who: ApplicantOnForm) {
  return db
    .selectFrom('submissions')
    .where('form_id', '=', who.formId)
    .where('environment', '=', who.environment)
    .where('game_user_id', '=', who.gameUserId);
}

/** The applicant's submission to the form awaiting review (at most one: `submissions_one_pending`). */
export async function findPendingSubmission(db: Executor, who: ApplicantOnForm): Promise<string | undefined> {
  const row = await applicantsOnForm(db, who)
    .select('id')
    .where('status', 'in', [...PENDING_STATUSES])
    .executeTakeFirst();
  return row?.id;
}

/** When the applicant's latest rejection on the form was, if any (a provisioned rejection has no known time). */
export async function lastRejectionAt(db: Executor, who: ApplicantOnForm): Promise<number | null> {
  const row = await applicantsOnForm(db, who)
    .select('rejected_at')
    .where('status', '=', 'rejected')
    .where('rejected_at', 'is not', null)
    .orderBy('rejected_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.rejected_at === undefined || row.rejected_at === null ? null : Number(row.rejected_at);
}

/**
 * Inserts the submission unless the applicant already has one awaiting review on the form: the partial unique
 * index decides, on both stores and across instances (a racing insert waits for the other to commit, then does
 * nothing). Returns whether this call inserted it.
 */
export async function insertSubmissionUnlessPending(db: Executor, row: Insertable<SubmissionTable>): Promise<boolean> {
  const result = await db
    .insertInto('submissions')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
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
