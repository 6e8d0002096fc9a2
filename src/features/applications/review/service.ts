import type { Updateable } from 'kysely';
import type { UserActor } from '../../../shared/actor.ts';
import { toIso, type Clock } from '../../../shared/clock.ts';
import type { Executor, SubmissionTable } from '../../../db/types.ts';
import { AppError, notFound } from '../../../shared/errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { recordOperation, type Recorded, type RequestContext } from '../../../journal/journal.ts';
import { giveEntryRank } from '../../ranks/entry-rank.ts';
import { ensureStaffProfile } from '../../staff/upkeep.ts';
import { findWorkspace } from '../../workspaces/workspace.ts';
import {
  findSubmission,
  setStaffProfile,
  updateSubmissionIf,
  type Submission,
} from './repository.ts';
import { OPERATION_RULES, stateError, type ReviewOperation } from '../rules.ts';
import type {
  AcceptInput,
  AcceptResult,
  DecisionInput,
  RejectResult,
  ReviewPatchInput,
  ReviewUpdateResult,
  UnderReviewResult,
} from './schemas.ts';

/** A review operation's input: which submission, the body, and the request that asks. */
export interface ReviewInput<Body> {
  readonly submissionId: string;
  readonly body: Body;
  readonly request: RequestContext;
}

interface Applicant {
  readonly gameUserId: string;
  readonly gameUsername: string;
  readonly displayName: string;
  readonly chatUserId: string | null;
}

/**
 * The applicant's names for a staff profile. An applicant who applied through an API key may have sent neither
 * name (docs/API.md, "Applications"): the profile is then named after the game user id, which reviewers can correct.
 */
function parseApplicant(json: string): Applicant {
  const value = JSON.parse(json) as Record<string, unknown>;
  const text = (key: string): string | null => {
    const field = value[key];
    if (typeof field === 'number') return String(field);
    return typeof field === 'string' && field !== '' ? field : null;
  };
  const gameUserId = text('gameUserId');
  if (gameUserId === null) throw new AppError('invalid_state_transition', 'The applicant\'s data was erased; no staff profile can be made.');
  const gameUsername = text('gameUsername');
  return {
    gameUserId,
    gameUsername: gameUsername ?? gameUserId,
    displayName: text('displayName') ?? gameUsername ?? gameUserId,
    chatUserId: text('chatUserId'),
  };
}

/** With a workspace selected, only that workspace is visible; otherwise every workspace the caller belongs to. */
function canSee(actor: UserActor, workspaceId: string): boolean {
  return actor.selectedWorkspaceId !== null
    ? actor.selectedWorkspaceId === workspaceId
    : actor.memberships.has(workspaceId);
}

/** What one review operation adds to the shared sequence (see `decide` below). */
interface Decision<Prepared, Result> {
  /** Reads after authorization and before the change (accept: whether to link a staff profile). */
  readonly prepare?: (submission: Submission, permissions: ReadonlySet<string>) => Promise<Prepared>;
  /** The columns the conditional UPDATE sets. */
  readonly changes: (now: number) => Updateable<SubmissionTable>;
  /** Writes after the change, and what the command, the event and the answer say. */
  readonly conclude: (
    updated: Submission,
    now: number,
    prepared: Prepared | undefined,
  ) => Concluded<Result> | Promise<Concluded<Result>>;
}

interface Concluded<Result> {
  readonly command: Record<string, unknown>;
  readonly event: Record<string, unknown>;
  readonly result: Result;
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
    changes: Updateable<SubmissionTable>,
  ): Promise<Submission> {
    const updated = await updateSubmissionIf(trx, submission.id, OPERATION_RULES[operation].from, changes);
    if (updated) return updated;
    const current = await findSubmission(trx, submission.id);
    throw (
      (current && stateError(operation, current.status)) ??
      new AppError('invalid_state_transition', 'The submission changed concurrently; retry with a new key.')
    );
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

  /**
   * The sequence every review operation shares, in one transaction: authorize (404, 403, 409/422), the
   * operation's own reads (`prepare`), the conditional UPDATE of the submission (`changes`), its own writes and
   * answer (`conclude`), then the operation recorded (recordOperation: its command, its event and the event's
   * webhook deliveries). The ids of the command and the event complete the answer.
   */
  async function decide<Prepared, Result extends Readonly<Record<string, unknown>>>(
    trx: Executor,
    actor: UserActor,
    submissionId: string,
    operation: ReviewOperation,
    request: RequestContext,
    decision: Decision<Prepared, Result>,
  ): Promise<Result & Recorded> {
    const now = clock.now();
    const { submission, permissions } = await authorize(trx, actor, submissionId, operation);
    const prepared = decision.prepare ? await decision.prepare(submission, permissions) : undefined;
    const updated = await transition(trx, submission, operation, decision.changes(now));
    const { command, event, result } = await decision.conclude(updated, now, prepared);
    const rule = OPERATION_RULES[operation];
    // The event goes to the workspace's webhook endpoints in the submission's environment (a receiver tells a test
    // application's decisions from live ones, as at intake).
    return recordOperation(
      trx,
      {
        workspaceId: updated.workspaceId,
        environment: updated.environment,
        commandType: rule.commandType,
        eventType: rule.eventType,
        actor: { type: 'user', id: actor.userId },
        request,
        submissionId: updated.id,
        commandPayload: { submissionId: updated.id, ...command },
        eventPayload: { submissionId: updated.id, ...event },
        at: now,
      },
      result,
    );
  }

  return {
    accept(
      trx: Executor,
      actor: UserActor,
      { submissionId, body: input, request }: ReviewInput<AcceptInput>,
    ): Promise<AcceptResult> {
      return decide(trx, actor, submissionId, 'accept', request, {
        prepare: (submission, permissions) => wantsStaffProfile(trx, submission, permissions, input.createStaffProfile),
        changes: (now) => ({ status: 'accepted', accepted_at: now, updated_at: now }),
        async conclude(accepted, now, withStaff) {
          const staff = withStaff
            ? await ensureStaffProfile(trx, { workspaceId: accepted.workspaceId, ...parseApplicant(accepted.applicant), createdAt: now })
            : null;
          if (staff) await setStaffProfile(trx, accepted.id, staff.id);
          // A profile the acceptance creates gets its form's entry rank (docs/ROBLOX.md).
          if (staff?.created) {
            await giveEntryRank(trx, { submissionId: accepted.id, staffId: staff.id, decidedBy: actor.userId, request, now });
          }
          const acceptedAt = toIso(now);
          const staffProfileCreated = staff?.created ?? false;
          const staffProfileId = staff?.id ?? null;
          const reviewNote = input.reviewNote ?? null;
          return {
            command: { ...input },
            event: { status: 'accepted', acceptedAt, reviewNote, staffProfileCreated, staffProfileId },
            result: { submissionId: accepted.id, status: 'accepted' as const, acceptedAt, staffProfileCreated, staffProfileId },
          };
        },
      });
    },

    markUnderReview(
      trx: Executor,
      actor: UserActor,
      { submissionId, body: input, request }: ReviewInput<DecisionInput>,
    ): Promise<UnderReviewResult> {
      return decide(trx, actor, submissionId, 'markUnderReview', request, {
        changes: (now) => ({ status: 'under_review', reviewed_at: now, updated_at: now }),
        conclude(updated, now) {
          const reviewedAt = toIso(now);
          return {
            command: { ...input },
            event: { status: 'under_review', reviewedAt, reviewNote: input.reviewNote ?? null },
            result: { submissionId: updated.id, status: 'under_review' as const, reviewedAt },
          };
        },
      });
    },

    reject(
      trx: Executor,
      actor: UserActor,
      { submissionId, body: input, request }: ReviewInput<DecisionInput>,
    ): Promise<RejectResult> {
      return decide(trx, actor, submissionId, 'reject', request, {
        changes: (now) => ({ status: 'rejected', rejected_at: now, updated_at: now }),
        conclude(rejected, now) {
          const rejectedAt = toIso(now);
          return {
            command: { ...input },
            event: { status: 'rejected', rejectedAt, reviewNote: input.reviewNote ?? null },
            result: { submissionId: rejected.id, status: 'rejected' as const, rejectedAt },
          };
        },
      });
    },

    updateReview(
      trx: Executor,
      actor: UserActor,
      { submissionId, body: patch, request }: ReviewInput<ReviewPatchInput>,
    ): Promise<ReviewUpdateResult> {
      const scoreUpdated = patch.score !== undefined;
      const reviewerNotesUpdated = patch.reviewerNotes !== undefined;
      return decide(trx, actor, submissionId, 'updateReview', request, {
        changes: (now) => ({
          ...(scoreUpdated ? { score: patch.score } : {}),
          // An empty string clears the notes, like null.
          ...(reviewerNotesUpdated ? { reviewer_notes: patch.reviewerNotes === '' ? null : patch.reviewerNotes } : {}),
          reviewed_at: now,
          updated_at: now,
        }),
        conclude(updated, now) {
          const status = updated.status === 'under_review' ? ('under_review' as const) : ('submitted' as const);
          const reviewedAt = toIso(now);
          const { score, reviewerNotes } = updated;
          return {
            command: { ...patch },
            event: { status, score, reviewerNotes, scoreUpdated, reviewerNotesUpdated, reviewedAt },
            result: { submissionId: updated.id, status, score, scoreUpdated, reviewerNotesUpdated, reviewedAt },
          };
        },
      });
    },
  };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
