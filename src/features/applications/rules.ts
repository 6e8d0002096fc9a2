import { sql, type RawBuilder } from 'kysely';
import type { Permission } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import type { WebhookEventType } from '../../webhooks/event-types.ts';

export const SUBMISSION_STATUSES = ['submitted', 'under_review', 'accepted', 'rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Awaiting review: what the queue shows by default, and of which an applicant may hold one per form. */
export const PENDING_STATUSES: readonly SubmissionStatus[] = ['submitted', 'under_review'];

/**
 * SQL: the submission's status (`column`) is one of PENDING_STATUSES, written as literals (never values) so that
 * both stores match the predicates of the partial indexes of pending submissions.
 */
export function pendingStatus(column: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.raw(column)} in (${sql.join(PENDING_STATUSES.map((status) => sql.lit(status)))})`;
}

export type ReviewOperation = 'accept' | 'reject' | 'markUnderReview' | 'updateReview';

interface OperationRule {
  /** Permission the caller needs in the submission's workspace. */
  readonly permission: Permission;
  /** States the operation may start from; the conditional UPDATE uses the same list. */
  readonly from: readonly SubmissionStatus[];
  readonly commandType: string;
  readonly eventType: WebhookEventType;
}

export const OPERATION_RULES: Readonly<Record<ReviewOperation, OperationRule>> = {
  markUnderReview: {
    permission: 'applications.review',
    from: ['submitted'],
    commandType: 'application.submission.mark_under_review',
    eventType: 'application.submission.under_review',
  },
  updateReview: {
    permission: 'applications.review',
    from: PENDING_STATUSES,
    commandType: 'application.submission.update_review',
    eventType: 'application.submission.review_updated',
  },
  accept: {
    permission: 'applications.decide',
    from: PENDING_STATUSES,
    commandType: 'application.submission.accept',
    eventType: 'application.submission.accepted',
  },
  reject: {
    permission: 'applications.decide',
    from: PENDING_STATUSES,
    commandType: 'application.submission.reject',
    eventType: 'application.submission.rejected',
  },
};

const FINAL_STATES: readonly string[] = ['accepted', 'rejected'];

/** Why `operation` cannot start from `status`, or null when it can. */
export function stateError(operation: ReviewOperation, status: string): AppError | null {
  if (FINAL_STATES.includes(status)) {
    return new AppError('submission_finalized', `The submission is already ${status}; it can no longer change.`, {
      status,
    });
  }
  if (!(OPERATION_RULES[operation].from as readonly string[]).includes(status)) {
    return new AppError('invalid_state_transition', `This operation is not allowed while the submission is ${status}.`, {
      status,
    });
  }
  return null;
}
