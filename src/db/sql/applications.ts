/**
 * The named statements of an application's intake (src/features/applications/intake/): the values each takes and
 * the rows it returns. Their text is with the other named statements, in `sqlite.ts` and `postgres.ts`.
 */
import type { Selectable } from 'kysely';
import type { ApplicationFormTable } from '../types.ts';
import type { Statement } from './index.ts';

/** A form's columns as the service reads them. */
export type FormRow = Pick<
  Selectable<ApplicationFormTable>,
  'id' | 'workspace_id' | 'name' | 'slug' | 'status' | 'description' | 'department_id' | 'cooldown_days' | 'questions'
>;

/** The applicant on a form: whose earlier submissions an intake checks. */
type ApplicantValues = [formId: string, environment: string, gameUserId: string];

/** A submission's columns, in the table's order. */
export type SubmissionValues = [
  id: string,
  workspaceId: string,
  status: string,
  score: number | null,
  reviewerNotes: string | null,
  applicant: string,
  answers: string,
  createdAt: number,
  reviewedAt: number | null,
  acceptedAt: number | null,
  rejectedAt: number | null,
  staffProfileId: string | null,
  updatedAt: number,
  formId: string | null,
  environment: string,
  gameUserId: string | null,
];

/** Statements both stores run, with the same values. */
export interface IntakeStatements {
  /** A form by id, in one workspace. */
  findForm: Statement<[formId: string, workspaceId: string], FormRow>;
  /** The applicant's submission to the form awaiting review, if any (at most one: `submissions_one_pending`). */
  findPendingSubmission: Statement<ApplicantValues, { readonly id: string }>;
  /** The applicant's latest rejection on the form with a known time, if any. */
  findLastRejection: Statement<ApplicantValues, { readonly rejected_at: number }>;
  /** Inserts a submission unless the applicant has one pending on the form; its id when it was inserted. */
  insertSubmissionUnlessPending: Statement<SubmissionValues, { readonly id: string }>;
  /** Records a command (`commands`' columns in order). */
  insertCommand: Statement<
    [
      id: string,
      workspaceId: string,
      type: string,
      actorType: string,
      actorId: string,
      submissionId: string | null,
      requestId: string,
      idempotencyKey: string | null,
      payload: string,
      createdAt: number,
    ],
    never
  >;
  /** Records an event (`events`' columns in order). */
  insertEvent: Statement<
    [id: string, workspaceId: string, commandId: string, type: string, payload: string, createdAt: number],
    never
  >;
}
