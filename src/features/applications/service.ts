import type { UserActor } from '../../actor.js';
import { toIso, type Clock } from '../../clock.js';
import type { Executor } from '../../db/types.js';
import { AppError, notFound } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { findWorkspace } from '../workspaces/repository.js';
import {
  findStaffIdByGameUser,
  findSubmission,
  insertCommand,
  insertEvent,
  insertStaffIfAbsent,
  setStaffProfile,
  updateSubmissionIf,
  type Submission,
} from './repository.js';
import { OPERATION_RULES, stateError, type ReviewOperation } from './rules.js';
import type {
  AcceptInput,
  AcceptResult,
  DecisionInput,
  RejectResult,
  ReviewPatchInput,
  ReviewUpdateResult,
  UnderReviewResult,
} from './schemas.js';

/** The request an operation belongs to, as recorded on its command. */
export interface RequestContext {
  readonly requestId: string;
  readonly idempotencyKey: string | null;
}

interface Applicant {
  readonly gameUserId: string;
  readonly gameUsername: string;
  readonly displayName: string;
  readonly chatUserId: string | null;
}

function parseApplicant(json: string): Applicant {
  const value = JSON.parse(json) as Record<string, unknown>;
  const text = (key: string): string => {
    const field = value[key];
    if (typeof field !== 'string' || field === '') throw new Error(`submission applicant has no ${key}`);
    return field;
  };
  const chatUserId = value.chatUserId;
  return {
    gameUserId: text('gameUserId'),
    gameUsername: text('gameUsername'),
    displayName: text('displayName'),
    chatUserId: typeof chatUserId === 'string' && chatUserId !== '' ? chatUserId : null,
  };
}

/** With a workspace selected, only that workspace is visible; otherwise every workspace the caller belongs to. */
function canSee(actor: UserActor, workspaceId: string): boolean {
  return actor.selectedWorkspaceId !== null
    ? actor.selectedWorkspaceId === workspaceId
    : actor.memberships.has(workspaceId);
}

export interface ApplicationServiceDeps {
  readonly clock: Clock;
}

/**
 * Review operations on application submissions. Every operation runs in the caller's transaction and, in it,
 * changes the submission with a conditional UPDATE (so concurrent operations on any instance have one winner)
 * and records one command and one event.
 */
export function createApplicationService({ clock }: ApplicationServiceDeps) {
  /** Lookup (404), permission (403) and state (409/422), in that order. */
  async function authorize(
    trx: Executor,
    actor: UserActor,
    submissionId: string,
    operation: ReviewOperation,
  ): Promise<{ submission: Submission; permissions: ReadonlySet<string> }> {
    const submission = isUuid(submissionId) ? await findSubmission(trx, submissionId.toLowerCase()) : undefined;
    const permissions = submission ? actor.memberships.get(submission.workspaceId) : undefined;
    if (!submission || !permissions || !canSee(actor, submission.workspaceId)) throw notFound('The submission');
    const required = OPERATION_RULES[operation].permission;
    if (!permissions.has(required)) {
      throw new AppError('permission_denied', `This operation requires the ${required} permission.`, {
        requiredPermission: required,
      });
    }
    const error = stateError(operation, submission.status);
    if (error) throw error;
    return { submission, permissions };
  }

  /** The conditional UPDATE; a loser re-reads and reports why it lost. */
  async function transition(
    trx: Executor,
    submission: Submission,
    operation: ReviewOperation,
    changes: Parameters<typeof updateSubmissionIf>[3],
  ): Promise<Submission> {
    const updated = await updateSubmissionIf(trx, submission.id, OPERATION_RULES[operation].from, changes);
    if (updated) return updated;
    const current = await findSubmission(trx, submission.id);
    throw (
      (current && stateError(operation, current.status)) ??
      new AppError('invalid_state_transition', 'The submission changed concurrently; retry with a new key.')
    );
  }

  async function record(
    trx: Executor,
    actor: UserActor,
    submission: Submission,
    operation: ReviewOperation,
    request: RequestContext,
    now: number,
    payloads: { command: Record<string, unknown>; event: Record<string, unknown> },
  ): Promise<{ commandId: string; eventId: string }> {
    const rule = OPERATION_RULES[operation];
    const commandId = newId();
    const eventId = newId();
    await insertCommand(trx, {
      id: commandId,
      workspaceId: submission.workspaceId,
      type: rule.commandType,
      actorType: 'user',
      actorId: actor.userId,
      submissionId: submission.id,
      requestId: request.requestId,
      idempotencyKey: request.idempotencyKey,
      payload: { submissionId: submission.id, ...payloads.command },
      createdAt: now,
    });
    await insertEvent(trx, {
      id: eventId,
      workspaceId: submission.workspaceId,
      commandId,
      type: rule.eventType,
      payload: { submissionId: submission.id, ...payloads.event },
      createdAt: now,
    });
    return { commandId, eventId };
  }

  /** Links the workspace's staff profile for the applicant's game user, creating it when there is none. */
  async function ensureStaffProfile(
    trx: Executor,
    submission: Submission,
    now: number,
  ): Promise<{ id: string; created: boolean }> {
    const applicant = parseApplicant(submission.applicant);
    const existing = await findStaffIdByGameUser(trx, submission.workspaceId, applicant.gameUserId);
    if (existing) return { id: existing, created: false };
    const id = newId();
    if (await insertStaffIfAbsent(trx, { id, workspaceId: submission.workspaceId, ...applicant, createdAt: now })) {
      return { id, created: true };
    }
    // Another transaction created it between our read and insert.
    const raced = await findStaffIdByGameUser(trx, submission.workspaceId, applicant.gameUserId);
    if (!raced) throw new Error('staff profile vanished after a unique conflict');
    return { id: raced, created: false };
  }

  async function wantsStaffProfile(
    trx: Executor,
    submission: Submission,
    permissions: ReadonlySet<string>,
    requested: boolean | undefined,
  ): Promise<boolean> {
    if (requested !== undefined && permissions.has('staff.create')) return requested;
    const workspace = await findWorkspace(trx, submission.workspaceId);
    return workspace?.settings.createStaffProfileOnAccept ?? false;
  }

  return {
    async accept(
      trx: Executor,
      actor: UserActor,
      submissionId: string,
      input: AcceptInput,
      request: RequestContext,
    ): Promise<AcceptResult> {
      const now = clock.now();
      const { submission, permissions } = await authorize(trx, actor, submissionId, 'accept');
      const withStaff = await wantsStaffProfile(trx, submission, permissions, input.createStaffProfile);
      const accepted = await transition(trx, submission, 'accept', {
        status: 'accepted',
        accepted_at: now,
        updated_at: now,
      });
      const staff = withStaff ? await ensureStaffProfile(trx, accepted, now) : null;
      if (staff) await setStaffProfile(trx, accepted.id, staff.id);
      const acceptedAt = toIso(now);
      const ids = await record(trx, actor, accepted, 'accept', request, now, {
        command: { ...input },
        event: {
          status: 'accepted',
          acceptedAt,
          reviewNote: input.reviewNote ?? null,
          staffProfileCreated: staff?.created ?? false,
          staffProfileId: staff?.id ?? null,
        },
      });
      return {
        submissionId: accepted.id,
        status: 'accepted',
        acceptedAt,
        staffProfileCreated: staff?.created ?? false,
        staffProfileId: staff?.id ?? null,
        ...ids,
      };
    },

    async markUnderReview(
      trx: Executor,
      actor: UserActor,
      submissionId: string,
      input: DecisionInput,
      request: RequestContext,
    ): Promise<UnderReviewResult> {
      const now = clock.now();
      const { submission } = await authorize(trx, actor, submissionId, 'markUnderReview');
      const updated = await transition(trx, submission, 'markUnderReview', {
        status: 'under_review',
        reviewed_at: now,
        updated_at: now,
      });
      const reviewedAt = toIso(now);
      const ids = await record(trx, actor, updated, 'markUnderReview', request, now, {
        command: { ...input },
        event: { status: 'under_review', reviewedAt, reviewNote: input.reviewNote ?? null },
      });
      return { submissionId: updated.id, status: 'under_review', reviewedAt, ...ids };
    },

    async reject(
      trx: Executor,
      actor: UserActor,
      submissionId: string,
      input: DecisionInput,
      request: RequestContext,
    ): Promise<RejectResult> {
      const now = clock.now();
      const { submission } = await authorize(trx, actor, submissionId, 'reject');
      const rejected = await transition(trx, submission, 'reject', {
        status: 'rejected',
        rejected_at: now,
        updated_at: now,
      });
      const rejectedAt = toIso(now);
      const ids = await record(trx, actor, rejected, 'reject', request, now, {
        command: { ...input },
        event: { status: 'rejected', rejectedAt, reviewNote: input.reviewNote ?? null },
      });
      return { submissionId: rejected.id, status: 'rejected', rejectedAt, ...ids };
    },

    async updateReview(
      trx: Executor,
      actor: UserActor,
      submissionId: string,
      patch: ReviewPatchInput,
      request: RequestContext,
    ): Promise<ReviewUpdateResult> {
      const now = clock.now();
      const { submission } = await authorize(trx, actor, submissionId, 'updateReview');
      const scoreUpdated = patch.score !== undefined;
      const reviewerNotesUpdated = patch.reviewerNotes !== undefined;
      const updated = await transition(trx, submission, 'updateReview', {
        ...(scoreUpdated ? { score: patch.score } : {}),
        // An empty string clears the notes, like null.
        ...(reviewerNotesUpdated ? { reviewer_notes: patch.reviewerNotes === '' ? null : patch.reviewerNotes } : {}),
        reviewed_at: now,
        updated_at: now,
      });
      const status = updated.status === 'under_review' ? 'under_review' : 'submitted';
      const reviewedAt = toIso(now);
      const ids = await record(trx, actor, updated, 'updateReview', request, now, {
        command: { ...patch },
        event: {
          status,
          score: updated.score,
          reviewerNotes: updated.reviewerNotes,
          scoreUpdated,
          reviewerNotesUpdated,
          reviewedAt,
        },
      });
      return {
        submissionId: updated.id,
        status,
        score: updated.score,
        scoreUpdated,
        reviewerNotesUpdated,
        reviewedAt,
        ...ids,
      };
    },
  };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
