import type { Environment } from '../../../shared/actor.ts';
import { sql } from 'kysely';
import { rowsOf } from '../../../db/dialect.ts';
import type { Executor, SubmissionTable } from '../../../db/types.ts';
import { pendingStatus } from '../rules.ts';

/** What an applicant's submission to a form needs to know before it is inserted. */
export interface ApplicantOnForm {
  readonly formId: string;
  readonly environment: Environment;
  readonly gameUserId: string;
}

/** SQL: a submission of the applicant to the form. */
const applicantOnForm = (who: ApplicantOnForm) =>
  sql<boolean>`form_id = ${who.formId} and environment = ${who.environment} and game_user_id = ${who.gameUserId}`;

/** The applicant's submission to the form awaiting review (at most one: `submissions_one_pending`). */
export async function findPendingSubmission(db: Executor, who: ApplicantOnForm): Promise<string | undefined> {
  const [row] = await rowsOf(
    db,
    sql<{ id: string }>`select id from submissions
where ${applicantOnForm(who)} and ${pendingStatus('status')}`,
  );
  return row?.id;
}

/** What the applicant's submissions to the form say about a new one: the one awaiting review, the latest rejection. */
export interface ApplicantState {
  readonly pendingId: string | undefined;
  /** When the latest rejection was, if any (a provisioned rejection has no known time), when asked for. */
  readonly lastRejectedAt: number | null;
}

/**
 * The applicant's submission to the form awaiting review and, with `withRejection`, when their latest rejection
 * on it was: in one read, for the refusals an intake checks in that order.
 */
export async function findApplicantState(db: Executor, who: ApplicantOnForm, withRejection: boolean): Promise<ApplicantState> {
  const rejection = withRejection
    ? sql<number | null>`(select max(rejected_at) from submissions where ${applicantOnForm(who)} and status = 'rejected')`
    : sql<null>`null`;
  const [row] = await rowsOf(
    db,
    sql<{ pending_id: string | null; rejected_at: number | null }>`select
  (select id from submissions where ${applicantOnForm(who)} and ${pendingStatus('status')}) as pending_id,
  ${rejection} as rejected_at`,
  );
  return {
    pendingId: row?.pending_id ?? undefined,
    lastRejectedAt: row?.rejected_at === null || row?.rejected_at === undefined ? null : Number(row.rejected_at),
  };
}

/**
 * Inserts the submission unless the applicant already has one awaiting review on the form: the partial unique
 * index decides, on both stores and across instances (a racing insert waits for the other to commit, then does
 * nothing). Returns whether this call inserted it.
 */
export async function insertSubmissionUnlessPending(db: Executor, row: SubmissionTable): Promise<boolean> {
  const r = row;
  const inserted = await rowsOf(
    db,
    sql<{ id: string }>`insert into submissions (id, workspace_id, status, score, reviewer_notes, applicant, answers, created_at, reviewed_at,
  accepted_at, rejected_at, staff_profile_id, updated_at, form_id, environment, game_user_id)
values (${r.id}, ${r.workspace_id}, ${r.status}, ${r.score}, ${r.reviewer_notes}, ${r.applicant}, ${r.answers}, ${r.created_at},
  ${r.reviewed_at}, ${r.accepted_at}, ${r.rejected_at}, ${r.staff_profile_id}, ${r.updated_at}, ${r.form_id}, ${r.environment},
  ${r.game_user_id})
on conflict do nothing
returning id`,
  );
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
  environment: Environment,
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
