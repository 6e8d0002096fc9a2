import type { UserActor } from '../../../shared/actor.ts';
import { toIso } from '../../../shared/clock.ts';
import type { Executor } from '../../../db/types.ts';
import { notFound } from '../../../shared/errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { timeCursor } from '../../../shared/paging.ts';
import { readAnswers, type AnswerValue } from '../answers.ts';
import { PENDING_STATUSES } from '../rules.ts';
import { toSubmissionItem, type SubmissionItemRow } from '../views.ts';
import { assertCanReadSubmission, readableWorkspaces } from './access.ts';
import { HISTORY_COMMAND_TYPES, toHistoryEntry } from './history.ts';
import {
  countByFormAndStatus,
  findSubmissionDetail,
  listForms,
  listHistory,
  listQueue,
} from './repository.ts';
import {
  QUEUE_LIMIT_DEFAULT,
  type FormStats,
  type QueuePage,
  type QueueQuery,
  type Stats,
  type StatsQuery,
  type SubmissionDetail,
} from './schemas.ts';
import { compareText } from '../../../shared/text.ts';

/** An answer's value as the response schema types it (a list is copied out of its read-only type). */
function answerValue(value: AnswerValue): SubmissionDetail['answers'][number]['value'] {
  return typeof value === 'object' && value !== null ? [...value] : value;
}

function byCreatedAtThenId(a: SubmissionItemRow, b: SubmissionItemRow): number {
  return Number(a.created_at) - Number(b.created_at) || compareText(a.id, b.id);
}

export interface QueueServiceDeps {
  readonly db: Executor;
}

/** The reviewers' reads: the queue, one submission with its answers and history, and counts by form. */
export function createQueueService({ db }: QueueServiceDeps) {
  return {
    /**
     * A page of the queue, oldest first. Each readable workspace's page is one ordered index walk; with several
     * workspaces (no selector) their pages are merged.
     */
    async list(actor: UserActor, query: QueueQuery): Promise<QueuePage> {
      const workspaceIds = readableWorkspaces(actor);
      const after = timeCursor(query, 'cursorCreatedAt');
      const limit = query.limit ?? QUEUE_LIMIT_DEFAULT;
      const statuses = query.status ? [...new Set(query.status.split(','))] : [...PENDING_STATUSES];
      const filter = {
        environment: query.environment ?? 'live',
        statuses,
        formId: query.formId ?? null,
        after,
        limit: limit + 1,
      };
      const pages = await Promise.all(workspaceIds.map((workspaceId) => listQueue(db, { ...filter, workspaceId })));
      const rows = pages.length === 1 ? pages[0]! : pages.flat().sort(byCreatedAtThenId).slice(0, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        submissions: page.map(toSubmissionItem),
        nextCursor:
          rows.length > limit && last
            ? { cursorCreatedAt: toIso(Number(last.created_at)), cursorId: last.id }
            : null,
      };
    },

    /** One visible submission (else 404) with its answers and its history. */
    async get(actor: UserActor, submissionId: string): Promise<SubmissionDetail> {
      const row = isUuid(submissionId) ? await findSubmissionDetail(db, submissionId.toLowerCase()) : undefined;
      if (!row) throw notFound('The submission');
      assertCanReadSubmission(actor, row.workspace_id);
      const history = await listHistory(db, row.id, Object.keys(HISTORY_COMMAND_TYPES));
      return {
        ...toSubmissionItem(row),
        reviewerNotes: row.reviewer_notes,
        staffProfileId: row.staff_profile_id,
        answers: readAnswers(row.answers).map((answer) => ({ ...answer, value: answerValue(answer.value) })),
        history: history.map(toHistoryEntry),
      };
    },

    /** Counts by form and status: every form of the readable workspaces (by name, then id), then submissions without a form. */
    async stats(actor: UserActor, query: StatsQuery): Promise<Stats> {
      const workspaceIds = readableWorkspaces(actor);
      const environment = query.environment ?? 'live';
      const [forms, counts] = await Promise.all([
        listForms(db, workspaceIds),
        countByFormAndStatus(db, workspaceIds, environment),
      ]);
      const empty = (formId: string | null, formName: string | null): FormStats => ({
        formId,
        formName,
        submitted: 0,
        underReview: 0,
        accepted: 0,
        rejected: 0,
      });
      // By name then id, compared by UTF-16 code units rather than by the database's collation, which differs
      // between stores and between PostgreSQL installations.
      const ordered = [...forms].sort((a, b) => compareText(a.name, b.name) || compareText(a.id, b.id));
      const rows = new Map<string | null, FormStats>(ordered.map((form) => [form.id, empty(form.id, form.name)]));
      for (const { form_id: formId, status, count } of counts) {
        if (formId === null && !rows.has(null)) rows.set(null, empty(null, null));
        const row = rows.get(formId);
        // A form id that names no form of the workspace is not listed (the form is gone).
        if (!row) continue;
        const n = Number(count);
        if (status === 'submitted') row.submitted += n;
        else if (status === 'under_review') row.underReview += n;
        else if (status === 'accepted') row.accepted += n;
        else if (status === 'rejected') row.rejected += n;
      }
      return { forms: [...rows.values()] };
    },
  };
}

export type QueueService = ReturnType<typeof createQueueService>;
