import type { LightMyRequestResponse } from 'fastify';
import { newId, randomBase62 } from '../../../src/shared/ids.ts';
import { storeAnswers, type StoredAnswer } from '../../../src/features/applications/answers.ts';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import type { StoreKind } from '../../helpers/stores.ts';
import { seedReviewFixture, type ReviewFixture } from './helpers.ts';

type Ctx = Pick<TestContext, 'store'>;

/** A form row of `workspaceId`, inserted directly; returns its id. */
export async function insertForm(
  ctx: Ctx,
  workspaceId: string,
  overrides: { id?: string; name?: string; status?: string } = {},
): Promise<string> {
  const id = overrides.id ?? newId();
  const name = overrides.name ?? `Form ${randomBase62(6)}`;
  await ctx.store.db
    .insertInto('application_forms')
    .values({
      id,
      workspace_id: workspaceId,
      name,
      slug: `form-${randomBase62(8).toLowerCase()}`,
      status: overrides.status ?? 'open',
      description: null,
      department_id: null,
      cooldown_days: 0,
      questions: JSON.stringify([
        { id: 'why', label: 'Why do you want to join?', type: 'long_text', required: true, maxLength: 5000 },
      ]),
      created_at: DEFAULT_NOW,
      updated_at: DEFAULT_NOW,
    })
    .execute();
  return id;
}

export interface NewSubmission {
  readonly id?: string;
  readonly workspaceId: string;
  readonly formId?: string | null;
  readonly status?: 'submitted' | 'under_review' | 'accepted' | 'rejected';
  readonly environment?: 'live' | 'test';
  readonly createdAt?: number;
  /** The stored answers: a list (a submission to a form) or an object by key (a provisioned one). */
  readonly answers?: readonly StoredAnswer[] | Record<string, unknown>;
  readonly applicant?: Record<string, unknown>;
}

/** A submission row inserted directly (the intake is not needed to fill a queue); returns its id. */
export async function insertSubmission(ctx: Ctx, submission: NewSubmission): Promise<string> {
  const id = submission.id ?? newId();
  const gameUserId = String(100000 + Math.floor(Math.random() * 1e9));
  const applicant = submission.applicant ?? { gameUserId, gameUsername: `user_${gameUserId}` };
  const answers = submission.answers ?? [];
  const status = submission.status ?? 'submitted';
  const createdAt = submission.createdAt ?? DEFAULT_NOW - 86_400_000;
  await ctx.store.db
    .insertInto('submissions')
    .values({
      id,
      workspace_id: submission.workspaceId,
      status,
      score: null,
      reviewer_notes: null,
      applicant: JSON.stringify(applicant),
      answers: Array.isArray(answers) ? storeAnswers(answers) : JSON.stringify(answers),
      created_at: createdAt,
      reviewed_at: status === 'under_review' ? createdAt + 1000 : null,
      accepted_at: status === 'accepted' ? createdAt + 2000 : null,
      rejected_at: status === 'rejected' ? createdAt + 2000 : null,
      staff_profile_id: null,
      updated_at: createdAt,
      form_id: submission.formId ?? null,
      environment: submission.environment ?? 'live',
      game_user_id: typeof applicant.gameUserId === 'string' ? applicant.gameUserId : null,
    })
    .execute();
  return id;
}

/** The intake's command and event rows for a submission, as an API key's application would record them, inserted directly. */
export async function recordSubmit(
  ctx: Ctx,
  submission: { id: string; workspaceId: string; formId: string | null },
  applicationId: string,
  at: number,
): Promise<{ commandId: string; eventId: string }> {
  const commandId = newId();
  const eventId = newId();
  await ctx.store.db
    .insertInto('commands')
    .values({
      id: commandId,
      workspace_id: submission.workspaceId,
      type: 'application.submission.submit',
      actor_type: 'api_key',
      actor_id: applicationId,
      submission_id: submission.id,
      request_id: `req_${randomBase62(16)}`,
      idempotency_key: `key-${randomBase62(12)}`,
      payload: JSON.stringify({ submissionId: submission.id, formId: submission.formId }),
      created_at: at,
    })
    .execute();
  await ctx.store.db
    .insertInto('events')
    .values({
      id: eventId,
      workspace_id: submission.workspaceId,
      command_id: commandId,
      type: 'application.submission.submitted',
      payload: JSON.stringify({ submissionId: submission.id }),
      created_at: at,
    })
    .execute();
  return { commandId, eventId };
}

export function headers(token: string, workspaceId?: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    ...(workspaceId !== undefined ? { 'x-service-workspace-id': workspaceId } : {}),
  };
}

export interface QueueBody {
  data: {
    submissions: Array<{ id: string; formId: string | null; formName: string | null; status: string; environment: string; createdAt: string }>;
    nextCursor: { cursorCreatedAt: string; cursorId: string } | null;
  };
  meta: { requestId: string };
}

export function queueBody(response: LightMyRequestResponse): QueueBody {
  return response.json() as QueueBody;
}

export function queueUrl(query: Record<string, string | number> = {}): string {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const text = params.toString();
  return text === '' ? '/v1/applications/submissions' : `/v1/applications/submissions?${text}`;
}

/** What a test of the reviewers' reads (the queue, the stats) sees: the file's app, a reviewer's token, its own workspaces. */
export interface QueueWorld {
  ctx: TestContext;
  token: string;
  fixture: ReviewFixture;
  /** The first workspace of `fixture`, the one the reviewer reads. */
  workspaceId: string;
}

/**
 * Registers the hooks the reviewers' read tests share: one app on a fresh database per file (closed after it), a
 * token of REVIEWER_USER_ID, and before each test a fresh pair of workspaces, so each test reads only what it
 * inserted. Read the returned object inside tests and hooks (it is filled in as they run).
 */
export function useQueueWorld(kind: StoreKind): QueueWorld {
  const world = {} as QueueWorld;
  beforeAll(async () => {
    world.ctx = await createTestContext(kind);
    world.token = await dashboardToken(REVIEWER_USER_ID);
  });
  afterAll(async () => {
    await world.ctx?.close();
  });
  beforeEach(async () => {
    world.fixture = await seedReviewFixture(world.ctx);
    world.workspaceId = world.fixture.ids.workspaceId;
  });
  return world;
}
