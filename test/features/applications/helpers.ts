import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { PERMISSIONS } from '../../../src/shared/actor.ts';
import { randomBase62, newId } from '../../../src/shared/ids.ts';
import type { SubmissionDocument, WorkspaceDocument } from '../../../src/provisioning/schema.ts';
import type { Inject } from '../../helpers/contract.ts';
import { afterAll, beforeAll } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, seed, type Fixture, type WorkspaceFixture } from '../../helpers/fixtures.ts';
import type { StoreKind } from '../../helpers/stores.ts';

/** Members added to the fixture's workspace, beside REVIEWER_USER_ID (every permission) and READONLY_USER_ID (none). */
export const REVIEW_ONLY_USER_ID = 'user-review-only';
export const DECIDE_ONLY_USER_ID = 'user-decide-only';
/** Member of both workspaces, with every permission in each. */
export const MULTI_USER_ID = 'user-multi';

export type ReviewOperation = 'accept' | 'mark-under-review' | 'reject' | 'review';
export const OPERATIONS: readonly ReviewOperation[] = ['accept', 'mark-under-review', 'reject', 'review'];

/** A body each operation accepts. */
export const VALID_BODY: Readonly<Record<ReviewOperation, unknown>> = {
  accept: { reviewNote: 'welcome' },
  'mark-under-review': { reviewNote: 'looking' },
  reject: { reviewNote: 'sorry' },
  review: { score: 50 },
};

export function submissionPath(submissionId: string, operation: ReviewOperation): string {
  return `/v1/applications/submissions/${submissionId}/${operation}`;
}

export interface CallOptions {
  /** Dashboard token (or any credential); null sends no Authorization header. */
  readonly token: string | null;
  /** The JSON body; omitted sends no body. */
  readonly body?: unknown;
  /** A raw payload sent as is (with `contentType`, default application/json). */
  readonly raw?: string;
  readonly contentType?: string;
  /** Default: a fresh random key; null sends none. */
  readonly key?: string | null;
  readonly headers?: Record<string, string>;
}

export function newKey(): string {
  return `key-${randomBase62(20)}`;
}

export function request(operation: ReviewOperation, submissionId: string, options: CallOptions): InjectOptions {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null) headers.authorization = `Bearer ${options.token}`;
  const key = options.key === undefined ? newKey() : options.key;
  if (key !== null) headers['idempotency-key'] = key;
  let payload: string | undefined;
  if (options.raw !== undefined) payload = options.raw;
  else if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  return {
    method: operation === 'review' ? 'PATCH' : 'POST',
    url: submissionPath(submissionId, operation),
    headers,
    ...(payload !== undefined ? { payload } : {}),
  };
}

export function call(
  inject: Inject,
  operation: ReviewOperation,
  submissionId: string,
  options: CallOptions,
): Promise<LightMyRequestResponse> {
  return inject(request(operation, submissionId, options));
}

/** A submission document with a unique applicant; `status` defaults to `submitted`. */
export function submissionDoc(overrides: Partial<SubmissionDocument> = {}): SubmissionDocument {
  const tag = randomBase62(8);
  return {
    id: newId(),
    status: 'submitted',
    score: null,
    reviewerNotes: null,
    applicant: {
      gameUserId: `g${tag}`,
      gameUsername: `applicant_${tag}`,
      displayName: `Applicant ${tag}`,
      chatUserId: `c${tag}`,
    },
    answers: { why: 'I would like to help.' },
    createdAt: '2026-03-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Inserts submissions into a seeded workspace through provisioning (which only inserts absent submissions). */
export async function addSubmissions(
  ctx: Pick<TestContext, 'store' | 'clock'>,
  workspace: WorkspaceDocument,
  ...submissions: SubmissionDocument[]
): Promise<SubmissionDocument[]> {
  await seed(ctx, { document: { workspaces: [{ ...workspace, submissions }] } });
  return submissions;
}

/** One fresh submission in `workspace`; returns its id. */
export async function addSubmission(
  ctx: Pick<TestContext, 'store' | 'clock'>,
  workspace: WorkspaceDocument,
  overrides: Partial<SubmissionDocument> = {},
): Promise<string> {
  const [doc] = await addSubmissions(ctx, workspace, submissionDoc(overrides));
  return doc!.id;
}

export type ReviewFixture = Fixture & { readonly second: WorkspaceFixture };

/**
 * The standard fixture (two workspaces) plus the application-review members, adjusted by `configure`, seeded.
 * Tests keep to one database at a time: see the report on concurrent PostgreSQL migrations.
 */
export async function seedReviewFixture(
  ctx: Pick<TestContext, 'store' | 'clock'>,
  configure: (fixture: ReviewFixture) => void = () => undefined,
): Promise<ReviewFixture> {
  const fixture = buildFixture({ secondWorkspace: true });
  fixture.workspace.members!.push(
    { userId: REVIEW_ONLY_USER_ID, permissions: ['applications.review'] },
    { userId: DECIDE_ONLY_USER_ID, permissions: ['applications.decide'] },
    { userId: MULTI_USER_ID, permissions: [...PERMISSIONS] },
  );
  fixture.second.workspace.members!.push({ userId: MULTI_USER_ID, permissions: [...PERMISSIONS] });
  configure(fixture);
  await seed(ctx, fixture);
  return fixture;
}

export async function submissionRow(ctx: Pick<TestContext, 'store'>, id: string) {
  return ctx.store.db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function commandsFor(ctx: Pick<TestContext, 'store'>, submissionId: string) {
  return ctx.store.db
    .selectFrom('commands')
    .selectAll()
    .where('submission_id', '=', submissionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function eventsFor(ctx: Pick<TestContext, 'store'>, submissionId: string) {
  return ctx.store.db
    .selectFrom('events as e')
    .innerJoin('commands as c', 'c.id', 'e.command_id')
    .selectAll('e')
    .where('c.submission_id', '=', submissionId)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
}

/** Staff profiles of a workspace with the given game user id. */
export async function staffWithGameUser(ctx: Pick<TestContext, 'store'>, workspaceId: string, gameUserId: string) {
  return ctx.store.db
    .selectFrom('staff')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('game_user_id', '=', gameUserId)
    .execute();
}

export function errorCode(response: LightMyRequestResponse): string | undefined {
  return (response.json() as { error?: { code?: string } }).error?.code;
}

/** What the review tests of one file see: its app, the seeded review fixture and a reviewer's dashboard token. */
export interface ReviewWorld {
  ctx: TestContext;
  fixture: ReviewFixture;
  token: string;
  /** Adds one fresh submission to the fixture's first workspace (see addSubmission); its id. */
  submission(overrides?: Partial<SubmissionDocument>): Promise<string>;
}

/**
 * Registers the hooks the review test files share: one app on a fresh database per file, the review fixture
 * seeded once, a token of REVIEWER_USER_ID, and the app closed after the file. Read the returned object inside
 * tests and hooks (it is filled in as they run).
 */
export function useReviewWorld(kind: StoreKind): ReviewWorld {
  const world = {
    submission: (overrides: Partial<SubmissionDocument> = {}) => addSubmission(world.ctx, world.fixture.workspace, overrides),
  } as ReviewWorld;
  beforeAll(async () => {
    world.ctx = await createTestContext(kind);
    world.fixture = await seedReviewFixture(world.ctx);
    world.token = await dashboardToken(REVIEWER_USER_ID);
  });
  afterAll(async () => {
    await world.ctx?.close();
  });
  return world;
}
