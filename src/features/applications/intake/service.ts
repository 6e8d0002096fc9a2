import type { ApiKeyActor } from '../../../shared/actor.ts';
import { DAY_MS, toIso, type Clock } from '../../../shared/clock.ts';
import type { Executor, SubmissionTable } from '../../../db/types.ts';
import { AppError } from '../../../shared/errors.ts';
import { newTimeOrderedId } from '../../../shared/ids.ts';
import { recordOperation, type RequestContext } from '../../../journal/journal.ts';
import { checkAnswers, storeAnswers } from '../answers.ts';
import { findWorkspaceForm, type Form } from '../forms/forms.ts';
import { toSubmissionItem, type SubmissionItem } from '../views.ts';
import {
  findApplicantState,
  findPendingSubmission,
  insertSubmissionUnlessPending,
  listApplicantSubmissions,
  type ApplicantOnForm,
} from './repository.ts';
import type { ApplicantSubmission, IntakeBody } from './schemas.ts';

export const SUBMIT_COMMAND_TYPE = 'application.submission.submit';
export const SUBMITTED_EVENT_TYPE = 'application.submission.submitted';
/** How many of an applicant's submissions the status read shows. */
export const APPLICANT_HISTORY_LIMIT = 20;

export interface IntakeResult {
  readonly submission: SubmissionItem;
  readonly commandId: string;
  readonly eventId: string;
}

/** A submission's input: the form, the body, and the request that sends it. */
export interface IntakeInput {
  readonly formId: string;
  readonly body: IntakeBody;
  readonly request: RequestContext;
}

export interface IntakeServiceDeps {
  readonly db: Executor;
  readonly clock: Clock;
}

function pending(submissionId: string): AppError {
  return new AppError('submission_pending', 'The applicant already has a submission to this form awaiting review.', {
    submissionId,
  });
}

/** The applicant as stored: every field present, null when it was not sent. */
function storedApplicant(applicant: IntakeBody['applicant'], gameUserId: string): string {
  return JSON.stringify({
    gameUserId,
    gameUsername: applicant.gameUsername ?? null,
    displayName: applicant.displayName ?? null,
    chatUserId: applicant.chatUserId ?? null,
  });
}

/**
 * Applications through an API key (docs/API.md, "Applications"): a submission to a form is checked and recorded with
 * its command and event, in the caller's transaction; an applicant's own submissions are read.
 */
export function createIntakeService({ db, clock }: IntakeServiceDeps) {
  /** The refusals of the form's state, in order: closed, a submission pending, a rejection within the cooldown. */
  async function refuseByState(trx: Executor, form: Form, who: ApplicantOnForm, now: number): Promise<void> {
    if (form.status !== 'open') throw new AppError('form_closed', 'The form is closed; it takes no submissions.');
    const { pendingId, lastRejectedAt: rejectedAt } = await findApplicantState(trx, who, form.cooldownDays > 0);
    if (pendingId !== undefined) throw pending(pendingId);
    if (form.cooldownDays <= 0) return;
    const retryAfter = rejectedAt === null ? null : rejectedAt + form.cooldownDays * DAY_MS;
    if (retryAfter !== null && now < retryAfter) {
      throw new AppError(
        'application_cooldown',
        `The applicant was rejected recently; they may apply to this form again after ${form.cooldownDays} days.`,
        { retryAfter: toIso(retryAfter) },
      );
    }
  }

  return {
    /**
     * Lookup (404), the answers (400, every problem at once), the form's state (409), then one insert that the
     * database refuses when a racing intake won (409 `submission_pending`), the command and the event.
     */
    async submit(
      trx: Executor,
      actor: ApiKeyActor,
      { formId, body, request }: IntakeInput,
    ): Promise<IntakeResult> {
      const now = clock.now();
      const workspaceId = actor.application.workspaceId;
      const form = await findWorkspaceForm(trx, workspaceId, formId);
      const checked = checkAnswers(form.questions, body.answers);
      if (!checked.ok) {
        throw new AppError('validation_failed', 'The answers do not fit the form.', { issues: checked.issues });
      }
      const gameUserId = String(body.applicant.gameUserId);
      const who: ApplicantOnForm = { formId: form.id, environment: actor.environment, gameUserId };
      await refuseByState(trx, form, who, now);

      const row: SubmissionTable = {
        id: newTimeOrderedId(),
        workspace_id: workspaceId,
        status: 'submitted',
        score: null,
        reviewer_notes: null,
        applicant: storedApplicant(body.applicant, gameUserId),
        answers: storeAnswers(checked.answers),
        created_at: now,
        reviewed_at: null,
        accepted_at: null,
        rejected_at: null,
        staff_profile_id: null,
        updated_at: now,
        form_id: form.id,
        environment: actor.environment,
        game_user_id: gameUserId,
      };
      if (!(await insertSubmissionUnlessPending(trx, row))) {
        const winner = await findPendingSubmission(trx, who);
        if (winner === undefined) throw new Error('a pending submission vanished after a unique conflict');
        throw pending(winner);
      }

      // No answers and no applicant identity in the command or event records.
      const payload = { submissionId: row.id, formId: form.id };
      return recordOperation(
        trx,
        {
          workspaceId,
          environment: actor.environment,
          commandType: SUBMIT_COMMAND_TYPE,
          eventType: SUBMITTED_EVENT_TYPE,
          actor: { type: 'api_key', id: actor.application.id },
          request,
          submissionId: row.id,
          commandPayload: payload,
          eventPayload: payload,
          at: now,
        },
        { submission: toSubmissionItem({ ...row, form_name: form.name }) },
      );
    },

    /** What an applicant may be told about their own submissions: no score, no notes. */
    async applicantSubmissions(actor: ApiKeyActor, gameUserId: string): Promise<ApplicantSubmission[]> {
      const rows = await listApplicantSubmissions(
        db,
        actor.application.workspaceId,
        actor.environment,
        gameUserId,
        APPLICANT_HISTORY_LIMIT,
      );
      return rows.map((row) => {
        const decidedAt = row.accepted_at ?? row.rejected_at;
        return {
          id: row.id,
          formId: row.form_id,
          formName: row.form_id === null ? null : row.form_name,
          status: row.status as ApplicantSubmission['status'],
          createdAt: toIso(Number(row.created_at)),
          decidedAt: decidedAt === null ? null : toIso(Number(decidedAt)),
        };
      });
    },
  };
}

export type IntakeService = ReturnType<typeof createIntakeService>;
