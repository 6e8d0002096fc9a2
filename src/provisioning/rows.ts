import type { Insertable } from 'kysely';
import { answerValue, storeAnswers, type StoredAnswer } from '../features/applications/answers.ts';
import { normalizeQuestion, type Question } from '../features/applications/forms/questions.ts';
import type {
  ApplicationFormTable,
  ApplicationTable,
  DepartmentTable,
  InactivityNoticeTable,
  MemberTable,
  ShiftTable,
  StaffTable,
  SubmissionTable,
  WorkspaceTable,
} from '../db/types.ts';
import { instant } from './document.ts';
import type {
  ApplicationDocument,
  DepartmentDocument,
  FormDocument,
  MemberDocument,
  NoticeDocument,
  ShiftDocument,
  StaffDocument,
  SubmissionDocument,
  WorkspaceDocument,
} from './schema.ts';

/** Document entities as table rows (instants in epoch ms, booleans 0/1, JSON as text). Pure. */

export const DEFAULT_TIMEZONE = 'UTC';
/** The longest notice staff may ask for when the settings do not say (docs/API.md, "Inactivity notices"). */
export const DEFAULT_MAX_NOTICE_DAYS = 30;

const flag = (value: boolean | undefined): number => (value === true ? 1 : 0);
const instantOrNull = (value: string | null | undefined): number | null =>
  typeof value === 'string' ? instant(value) : null;

export function workspaceRow(workspace: WorkspaceDocument, now: number): Insertable<WorkspaceTable> {
  const settings = workspace.settings ?? {};
  return {
    id: workspace.id,
    name: workspace.name,
    slug: workspace.slug,
    timezone: workspace.timezone ?? DEFAULT_TIMEZONE,
    settings: JSON.stringify(settings),
    create_staff_profile_on_accept: flag(settings.createStaffProfileOnAccept),
    weekly_required_minutes: settings.weeklyRequiredMinutes ?? null,
    max_notice_days: settings.maxNoticeDays ?? DEFAULT_MAX_NOTICE_DAYS,
    chat_guild_id: workspace.chat?.guildId ?? null,
    chat_status: workspace.chat?.status ?? null,
    chat_connected_at: instantOrNull(workspace.chat?.connectedAt),
    created_at: now,
    updated_at: now,
  };
}

export function departmentRow(workspaceId: string, department: DepartmentDocument): DepartmentTable {
  return {
    id: department.id,
    workspace_id: workspaceId,
    name: department.name,
    weekly_required_minutes: department.weeklyRequiredMinutes ?? null,
  };
}

export function memberRow(workspaceId: string, member: MemberDocument): MemberTable {
  return {
    workspace_id: workspaceId,
    user_id: member.userId,
    permissions: JSON.stringify(member.permissions),
    chat_user_id: member.chatUserId ?? null,
  };
}

export function staffRow(workspaceId: string, staff: StaffDocument, now: number): StaffTable {
  return {
    id: staff.id,
    workspace_id: workspaceId,
    display_name: staff.displayName,
    game_user_id: staff.gameUserId,
    game_username: staff.gameUsername,
    chat_user_id: staff.chatUserId ?? null,
    department_id: staff.departmentId ?? null,
    rank: staff.rank ?? null,
    status: staff.status,
    weekly_required_minutes: staff.weeklyRequiredMinutes ?? null,
    created_at: now,
  };
}

/** A provisioned notice: `live`, undecided, written by the document (`origin`), `created_at` its first writing. */
export function noticeRow(workspaceId: string, notice: NoticeDocument, now: number): InactivityNoticeTable {
  return {
    id: notice.id,
    workspace_id: workspaceId,
    staff_id: notice.staffId,
    starts_at: instant(notice.startsAt),
    ends_at: instant(notice.endsAt),
    reason: notice.reason,
    status: notice.status,
    environment: 'live',
    created_at: now,
    decided_at: null,
    decision_note: null,
    decided_by: null,
    origin: 'provisioned',
  };
}

export function applicationRow(workspaceId: string, application: ApplicationDocument): ApplicationTable {
  return {
    id: application.id,
    workspace_id: workspaceId,
    name: application.name,
    approved: flag(application.approved),
    allowed_universe_ids: JSON.stringify(application.allowedUniverseIds),
    features: JSON.stringify(application.features),
  };
}

export function formRow(workspaceId: string, form: FormDocument, now: number): ApplicationFormTable {
  return {
    id: form.id,
    workspace_id: workspaceId,
    name: form.name,
    slug: form.slug,
    status: form.status,
    // An empty description is no description.
    description: form.description || null,
    department_id: form.departmentId ?? null,
    cooldown_days: form.cooldownDays ?? 0,
    questions: JSON.stringify(form.questions.map(normalizeQuestion)),
    created_at: now,
    updated_at: now,
    entry_rank: form.entryRank ?? null,
  };
}

/**
 * A provisioned submission's answers to a form, as an intake stores them: in the form's question order with its
 * labels and types, then any answer key that is no question of the form, labelled with its key, as short text.
 */
export function formAnswers(questions: readonly Question[], answers: Readonly<Record<string, unknown>>): StoredAnswer[] {
  const asked = questions
    .filter((question) => Object.hasOwn(answers, question.id))
    .map((question) => ({ questionId: question.id, label: question.label, type: question.type, value: answerValue(answers[question.id]) }));
  const known = new Set(questions.map((question) => question.id));
  const others = Object.entries(answers)
    .filter(([key]) => !known.has(key))
    .map(([key, value]): StoredAnswer => ({ questionId: key, label: key, type: 'short_text', value: answerValue(value) }));
  return [...asked, ...others];
}

/**
 * Imported submissions keep their status; review and decision times are unknown, so null. With a form
 * (`questions` of it given), the answers are stored in its format (see formAnswers).
 */
export function submissionRow(
  workspaceId: string,
  submission: SubmissionDocument,
  now: number,
  questions?: readonly Question[],
): SubmissionTable {
  const createdAt = submission.createdAt === undefined ? now : instant(submission.createdAt);
  const { applicant } = submission;
  return {
    id: submission.id,
    workspace_id: workspaceId,
    status: submission.status,
    score: submission.score ?? null,
    // An empty note is no note, as in a review update.
    reviewer_notes: submission.reviewerNotes || null,
    applicant: JSON.stringify({
      gameUserId: applicant.gameUserId,
      gameUsername: applicant.gameUsername,
      displayName: applicant.displayName,
      chatUserId: applicant.chatUserId ?? null,
    }),
    answers:
      submission.formId !== undefined && questions !== undefined
        ? storeAnswers(formAnswers(questions, submission.answers ?? {}))
        : JSON.stringify(submission.answers ?? {}),
    created_at: createdAt,
    reviewed_at: null,
    accepted_at: null,
    rejected_at: null,
    staff_profile_id: null,
    updated_at: createdAt,
    form_id: submission.formId ?? null,
    environment: 'live',
    game_user_id: applicant.gameUserId,
  };
}

/** History import: a completed shift whose last heartbeat (and last sign of life) is its end. */
export function shiftRow(workspaceId: string, shift: ShiftDocument, now: number): ShiftTable {
  const endedAt = instant(shift.endedAt);
  return {
    id: shift.id,
    workspace_id: workspaceId,
    application_id: shift.applicationId,
    environment: shift.environment,
    staff_id: shift.staffId,
    universe_id: shift.universeId,
    place_id: shift.placeId,
    server_id: shift.serverId,
    status: 'completed',
    started_at: instant(shift.startedAt),
    last_heartbeat_at: endedAt,
    last_seen_at: endedAt,
    ended_at: endedAt,
    end_reason: shift.endReason,
    created_at: now,
  };
}
