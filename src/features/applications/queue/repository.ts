import type { Environment } from '../../../shared/actor.ts';
import type { TimeCursor } from '../../../shared/paging.ts';
import type { Executor, SubmissionTable } from '../../../db/types.ts';
import { PENDING_STATUSES, pendingStatus, SUBMISSION_STATUSES } from '../rules.ts';
import type { SubmissionItemRow } from '../views.ts';

export interface QueueFilter {
  readonly workspaceId: string;
  readonly environment: Environment;
  readonly statuses: readonly string[];
  readonly formId: string | null;
  readonly after: TimeCursor | null;
  readonly limit: number;
}

const ITEM_COLUMNS = [
  's.id',
  's.form_id',
  's.status',
  's.environment',
  's.applicant',
  's.score',
  's.created_at',
  's.reviewed_at',
  's.accepted_at',
  's.rejected_at',
  'f.name as form_name',
] as const;

function withForm(db: Executor) {
  return db.selectFrom('submissions as s').leftJoin('application_forms as f', 'f.id', 's.form_id');
}

/** One workspace's queue after the cursor, by (created_at, id), at most `limit` rows. */
export async function listQueue(db: Executor, filter: QueueFilter): Promise<SubmissionItemRow[]> {
  let query = withForm(db)
    .select(ITEM_COLUMNS)
    .where('s.workspace_id', '=', filter.workspaceId)
    .where('s.environment', '=', filter.environment);
  // Pending statuses only (the default): the condition of the partial index `submissions_queue_pending`, in its
  // literal words so both stores use it, walks the pending rows alone; it is the whole status filter when both
  // pending statuses are asked for (a second, equal condition would make PostgreSQL count its selectivity twice,
  // expect almost no rows, and read them all by another index). Every status is no filter at all.
  const statuses = new Set(filter.statuses);
  const pendingOnly = [...statuses].every((status) => (PENDING_STATUSES as readonly string[]).includes(status));
  if (pendingOnly) query = query.where(pendingStatus('s.status'));
  const narrower = pendingOnly ? statuses.size < PENDING_STATUSES.length : statuses.size < SUBMISSION_STATUSES.length;
  if (narrower) query = query.where('s.status', 'in', [...statuses]);
  if (filter.formId !== null) query = query.where('s.form_id', '=', filter.formId);
  const after = filter.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('s.created_at', '>', after.at),
        eb.and([eb('s.created_at', '=', after.at), eb('s.id', '>', after.id)]),
      ]),
    );
  }
  return query.orderBy('s.created_at').orderBy('s.id').limit(filter.limit).execute();
}

export type SubmissionDetailRow = SubmissionItemRow &
  Pick<SubmissionTable, 'workspace_id' | 'reviewer_notes' | 'staff_profile_id' | 'answers'>;

export async function findSubmissionDetail(db: Executor, id: string): Promise<SubmissionDetailRow | undefined> {
  return withForm(db)
    .select([...ITEM_COLUMNS, 's.workspace_id', 's.reviewer_notes', 's.staff_profile_id', 's.answers'])
    .where('s.id', '=', id)
    .executeTakeFirst();
}

export interface HistoryRow {
  readonly command_id: string;
  readonly event_id: string;
  readonly type: string;
  readonly actor_type: string;
  readonly actor_id: string;
  /** The application's name when an API key's application acted; else null. */
  readonly application_name: string | null;
  readonly payload: string;
  readonly created_at: number;
}

/**
 * The submission's recorded commands of `types` with their events, oldest first (then by command id), each with
 * the name of the application whose API key sent it.
 */
export async function listHistory(db: Executor, submissionId: string, types: readonly string[]): Promise<HistoryRow[]> {
  return db
    .selectFrom('commands as c')
    .innerJoin('events as e', 'e.command_id', 'c.id')
    .leftJoin('applications as a', (join) => join.onRef('a.id', '=', 'c.actor_id').on('c.actor_type', '=', 'api_key'))
    .select([
      'c.id as command_id',
      'e.id as event_id',
      'c.type',
      'c.actor_type',
      'c.actor_id',
      'a.name as application_name',
      'c.payload',
      'c.created_at',
    ])
    .where('c.submission_id', '=', submissionId)
    .where('c.type', 'in', [...types])
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
}

export interface FormRow {
  readonly id: string;
  readonly name: string;
}

/** The workspaces' forms, in no particular order (the caller orders them the same way on both stores). */
export async function listForms(db: Executor, workspaceIds: readonly string[]): Promise<FormRow[]> {
  return db.selectFrom('application_forms').select(['id', 'name']).where('workspace_id', 'in', [...workspaceIds]).execute();
}

export interface StatusCountRow {
  readonly form_id: string | null;
  readonly status: string;
  readonly count: number | string | bigint;
}

/** How many submissions of the workspaces and environment each form (null: none) has in each status. */
export async function countByFormAndStatus(
  db: Executor,
  workspaceIds: readonly string[],
  environment: Environment,
): Promise<StatusCountRow[]> {
  return db
    .selectFrom('submissions')
    .select((eb) => ['form_id', 'status', eb.fn.countAll().as('count')])
    .where('workspace_id', 'in', [...workspaceIds])
    .where('environment', '=', environment)
    .groupBy(['form_id', 'status'])
    .execute();
}
