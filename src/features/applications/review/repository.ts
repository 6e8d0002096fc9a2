import type { Updateable } from 'kysely';
import type { Environment } from '../../../shared/actor.ts';
import type { Executor, SubmissionTable } from '../../../db/types.ts';

export interface Submission {
  readonly id: string;
  readonly workspaceId: string;
  readonly status: string;
  readonly score: number | null;
  readonly reviewerNotes: string | null;
  /** Applicant document as stored (JSON text). */
  readonly applicant: string;
  /** The environment of the key that sent it (`live` for a provisioned one). */
  readonly environment: Environment;
}

const SUBMISSION_COLUMNS = ['id', 'workspace_id', 'status', 'score', 'reviewer_notes', 'applicant', 'environment'] as const;

type SubmissionRow = Pick<SubmissionTable, (typeof SUBMISSION_COLUMNS)[number]>;

function toSubmission(row: SubmissionRow): Submission {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    status: row.status,
    score: row.score,
    reviewerNotes: row.reviewer_notes,
    applicant: row.applicant,
    environment: row.environment,
  };
}

export async function findSubmission(db: Executor, id: string): Promise<Submission | undefined> {
  const row = await db.selectFrom('submissions').select(SUBMISSION_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toSubmission(row) : undefined;
}

/**
 * Applies `changes` only while the submission is in one of `from`: the database, not a prior read, decides which
 * of two concurrent operations wins. Returns the updated submission, or undefined when the state had moved on.
 */
export async function updateSubmissionIf(
  db: Executor,
  id: string,
  from: readonly string[],
  changes: Updateable<SubmissionTable>,
): Promise<Submission | undefined> {
  const row = await db
    .updateTable('submissions')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returning(SUBMISSION_COLUMNS)
    .executeTakeFirst();
  return row ? toSubmission(row) : undefined;
}

export async function setStaffProfile(db: Executor, submissionId: string, staffId: string): Promise<void> {
  await db.updateTable('submissions').set({ staff_profile_id: staffId }).where('id', '=', submissionId).execute();
}
