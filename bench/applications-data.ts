/**
 * Writes the planned submissions (applications-plan.ts) of the big workspace, with the recorded commands and
 * events of those that have a history, in multi-row INSERTs, one transaction per chunk like the shifts.
 */
import type { Insertable, Kysely } from 'kysely';
import type { CommandTable, Database, EventTable, SubmissionTable } from '../src/db/types.ts';
import { normalizeQuestion } from '../src/features/applications/forms/questions.ts';
import { storeAnswers, type StoredAnswer } from '../src/features/applications/answers.ts';
import { answersFor, formQuestions, type SubmissionPlan } from './applications-plan.ts';
import { ENVIRONMENT, type WorkspacePlan } from './plan.ts';
import { Random } from './random.ts';

/** Submissions per transaction. */
const CHUNK = 5000;
/** Rows per INSERT: 16 columns × 1000 stays under SQLite's 32,766 parameters and PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 1000;
const MINUTE_MS = 60 * 1000;

/** The dashboard user who reviews the big workspace's submissions (a member of it in the plan). */
export const REVIEWER_ID = 'bench-admin-0';

interface Rows {
  readonly submissions: SubmissionTable[];
  readonly commands: Insertable<CommandTable>[];
  readonly events: Insertable<EventTable>[];
}

type Step = readonly [command: string, event: string, actor: 'api_key' | 'dashboard_user', payload: Record<string, unknown>];

function historySteps(plan: SubmissionPlan, formId: string, score: number): Step[] {
  const base = { submissionId: plan.id };
  const steps: Step[] = [
    ['application.submission.submit', 'application.submission.submitted', 'api_key', { ...base, formId }],
    ['application.submission.mark_under_review', 'application.submission.under_review', 'dashboard_user', { ...base, reviewNote: 'Taking a look.' }],
    ['application.submission.update_review', 'application.submission.review_updated', 'dashboard_user', { ...base, score }],
  ];
  if (plan.status === 'accepted') {
    steps.push(['application.submission.accept', 'application.submission.accepted', 'dashboard_user', { ...base, reviewNote: 'Welcome aboard.' }]);
  } else if (plan.status === 'rejected') {
    steps.push(['application.submission.reject', 'application.submission.rejected', 'dashboard_user', { ...base, reviewNote: 'Not this time.' }]);
  }
  return steps;
}

function rowsOf(workspace: WorkspacePlan, plans: readonly SubmissionPlan[], offset: number, random: Random): Rows {
  const applications = workspace.applications;
  if (applications === null) throw new Error('the workspace has no application form');
  const questions = formQuestions().map(normalizeQuestion);
  const rows: Rows = { submissions: [], commands: [], events: [] };
  plans.forEach((plan, i) => {
    const n = offset + i;
    const values = answersFor(n, random);
    const answers: StoredAnswer[] = questions.map((q) => ({ questionId: q.id, label: q.label, type: q.type, value: values[q.id] ?? null }));
    const score = random.int(0, 100);
    const last = plan.decidedAt ?? plan.createdAt + random.int(5, 600) * MINUTE_MS;
    const reviewedAt = plan.history ? Math.min(last, plan.createdAt + 2 * MINUTE_MS) : null;
    rows.submissions.push({
      id: plan.id,
      workspace_id: workspace.id,
      status: plan.status,
      score: plan.history || plan.decidedAt !== null ? score : null,
      reviewer_notes: plan.history ? 'Interview done; answers checked against the logs.' : null,
      applicant: JSON.stringify({ gameUserId: plan.gameUserId, gameUsername: `applicant_${n}`, displayName: `Applicant ${n}`, chatUserId: null }),
      answers: storeAnswers(answers),
      created_at: plan.createdAt,
      reviewed_at: reviewedAt,
      accepted_at: plan.status === 'accepted' ? plan.decidedAt : null,
      rejected_at: plan.status === 'rejected' ? plan.decidedAt : null,
      staff_profile_id: null,
      updated_at: plan.decidedAt ?? reviewedAt ?? plan.createdAt,
      form_id: applications.formId,
      environment: ENVIRONMENT,
      game_user_id: plan.gameUserId,
    });
    if (!plan.history) return;
    const steps = historySteps(plan, applications.formId, score);
    steps.forEach(([command, event, actor, payload], k) => {
      // The steps in order between the submission and its decision (or a little after it, when pending).
      const at = k === 0 ? plan.createdAt : Math.min(last, plan.createdAt + k * MINUTE_MS);
      const commandId = random.uuid();
      rows.commands.push({
        id: commandId,
        workspace_id: workspace.id,
        type: command,
        actor_type: actor,
        actor_id: actor === 'api_key' ? workspace.applicationId : REVIEWER_ID,
        submission_id: plan.id,
        request_id: `bench-${n}-${k}`,
        idempotency_key: null,
        payload: JSON.stringify(payload),
        created_at: at,
      });
      rows.events.push({ id: random.uuid(), workspace_id: workspace.id, command_id: commandId, type: event, payload: JSON.stringify(payload), created_at: at });
    });
  });
  return rows;
}

async function inParts<R>(rows: readonly R[], insert: (part: R[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await insert(rows.slice(i, i + ROWS_PER_STATEMENT));
}

export interface ApplicationStats {
  readonly submissions: number;
  readonly commands: number;
}

/** Inserts the workspace's planned submissions and their history. */
export async function insertApplications(db: Kysely<Database>, workspace: WorkspacePlan, seed: number): Promise<ApplicationStats> {
  const plans = workspace.applications?.submissions ?? [];
  const random = new Random(seed);
  let commands = 0;
  for (let at = 0; at < plans.length; at += CHUNK) {
    const rows = rowsOf(workspace, plans.slice(at, at + CHUNK), at, random);
    await db.transaction().execute(async (trx) => {
      await inParts(rows.submissions, (part) => trx.insertInto('submissions').values(part).execute());
      await inParts(rows.commands, (part) => trx.insertInto('commands').values(part).execute());
      await inParts(rows.events, (part) => trx.insertInto('events').values(part).execute());
    });
    commands += rows.commands.length;
  }
  return { submissions: plans.length, commands };
}
