import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { addSubmission, call, errorCode, seedReviewFixture, type ReviewFixture } from './helpers.ts';
import { headers, insertForm, insertSubmission, recordSubmit } from './queue-helpers.ts';

interface Detail {
  id: string;
  status: string;
  formId: string | null;
  formName: string | null;
  score: number | null;
  reviewerNotes: string | null;
  staffProfileId: string | null;
  decidedAt: string | null;
  answers: Array<{ questionId: string; label: string; type: string; value: unknown }>;
  history: Array<{
    commandId: string;
    eventId: string;
    type: string;
    actor: { type: string; id: string; name: string | null };
    at: string;
    reviewNote: string | null;
  }>;
}

describe.each(STORE_KINDS)('applications: one submission (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: ReviewFixture;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = await seedReviewFixture(ctx);
    token = await dashboardToken(REVIEWER_USER_ID);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const get = (id: string, workspaceId?: string, as = token) =>
    ctx.inject({ method: 'GET', url: `/v1/applications/submissions/${id}`, headers: headers(as, workspaceId) });
  const detail = async (id: string): Promise<Detail> => {
    const res = await get(id);
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: { submission: Detail } }).data.submission;
  };

  it('a submission to a form shows its answers in the stored order, with the labels they were given under', async () => {
    const workspaceId = fixture.ids.workspaceId;
    const formId = await insertForm(ctx, workspaceId, { name: 'Moderator application' });
    const answers = [
      { questionId: 'why', label: 'Why do you want to join?', type: 'long_text', value: 'To help.' },
      { questionId: 'age', label: 'How old are you?', type: 'number', value: 19 },
      { questionId: 'adult', label: 'Over 18?', type: 'boolean', value: false },
      { questionId: 'tz', label: 'Time zone', type: 'choice', value: 'EU' },
      { questionId: 'langs', label: 'Languages', type: 'multi_choice', value: ['en', 'de'] },
    ] as const;
    const id = await insertSubmission(ctx, { workspaceId, formId, answers: [...answers] });
    const submission = await detail(id);
    expect(submission.formId).toBe(formId);
    expect(submission.formName).toBe('Moderator application');
    expect(submission.answers).toEqual(answers);
    expect(submission.reviewerNotes).toBeNull();
    expect(submission.staffProfileId).toBeNull();
    expect(submission.history).toEqual([]);
  });

  it('a provisioned submission without a form shows its answers as short-text answers labelled by key', async () => {
    const id = await addSubmission(ctx, fixture.workspace, { answers: { why: 'I would like to help.', hours: '10' } });
    const submission = await detail(id);
    expect(submission.formId).toBeNull();
    expect(submission.formName).toBeNull();
    expect(submission.answers).toEqual([
      { questionId: 'why', label: 'why', type: 'short_text', value: 'I would like to help.' },
      { questionId: 'hours', label: 'hours', type: 'short_text', value: '10' },
    ]);
  });

  it('the history lists submit, mark under review, review update and accept, oldest first, with actors and notes', async () => {
    const workspaceId = fixture.ids.workspaceId;
    const formId = await insertForm(ctx, workspaceId);
    const submittedAt = DEFAULT_NOW - 3_600_000;
    const id = await insertSubmission(ctx, {
      workspaceId,
      formId,
      createdAt: submittedAt,
      applicant: { gameUserId: '777001', gameUsername: 'applicant_777001', displayName: 'Applicant' },
    });
    const submit = await recordSubmit(ctx, { id, workspaceId, formId }, fixture.ids.applicationId, submittedAt);

    const steps = [
      { operation: 'mark-under-review', body: { reviewNote: 'Looking.' } },
      { operation: 'review', body: { score: 80, reviewerNotes: 'Solid.' } },
      { operation: 'accept', body: { createStaffProfile: true } },
    ] as const;
    const recorded: Array<{ commandId: string; eventId: string; at: string }> = [];
    for (const [i, step] of steps.entries()) {
      ctx.clock.set(DEFAULT_NOW + (i + 1) * 60_000);
      const res = await call(ctx.inject, step.operation, id, { token, body: step.body });
      expect(res.statusCode, step.operation).toBe(200);
      const data = (res.json() as { data: { commandId: string; eventId: string } }).data;
      recorded.push({ commandId: data.commandId, eventId: data.eventId, at: new Date(DEFAULT_NOW + (i + 1) * 60_000).toISOString() });
    }
    ctx.clock.set(DEFAULT_NOW);

    const submission = await detail(id);
    expect(submission.status).toBe('accepted');
    expect(submission.score).toBe(80);
    expect(submission.reviewerNotes).toBe('Solid.');
    expect(submission.staffProfileId).toMatch(/^[0-9a-f-]{36}$/);
    expect(submission.decidedAt).toBe(recorded[2]!.at);
    const user = { type: 'dashboard_user', id: REVIEWER_USER_ID, name: null };
    expect(submission.history).toEqual([
      {
        ...submit,
        type: 'submitted',
        actor: { type: 'api_key', id: fixture.ids.applicationId, name: 'Acme game' },
        at: new Date(submittedAt).toISOString(),
        reviewNote: null,
      },
      { ...recorded[0], type: 'marked_under_review', actor: user, reviewNote: 'Looking.' },
      { ...recorded[1], type: 'review_updated', actor: user, reviewNote: null },
      { ...recorded[2], type: 'accepted', actor: user, reviewNote: null },
    ]);
  });

  it('a rejection appears as rejected with its note', async () => {
    const id = await addSubmission(ctx, fixture.workspace);
    ctx.clock.set(DEFAULT_NOW + 5_000);
    expect((await call(ctx.inject, 'reject', id, { token, body: { reviewNote: 'Not now.' } })).statusCode).toBe(200);
    ctx.clock.set(DEFAULT_NOW);
    const submission = await detail(id);
    expect(submission.status).toBe('rejected');
    expect(submission.history.map((h) => [h.type, h.reviewNote])).toEqual([['rejected', 'Not now.']]);
  });

  it('the id is read in any case', async () => {
    const id = await addSubmission(ctx, fixture.workspace);
    expect((await get(id.toUpperCase())).statusCode).toBe(200);
  });

  it('another workspace\'s, an unknown or a malformed id is 404 not_found', async () => {
    const other = await addSubmission(ctx, fixture.second.workspace);
    for (const id of [other, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await get(id);
      expect(res.statusCode, id).toBe(404);
      expect(errorCode(res), id).toBe('not_found');
    }
  });

  it('a submission outside the selected workspace is 404, inside it 200', async () => {
    const id = await addSubmission(ctx, fixture.workspace);
    const multi = await dashboardToken('user-multi');
    expect((await get(id, fixture.second.ids.workspaceId, multi)).statusCode).toBe(404);
    expect((await get(id, fixture.ids.workspaceId, multi)).statusCode).toBe(200);
    expect((await get(id, undefined, multi)).statusCode).toBe(200);
  });
});
