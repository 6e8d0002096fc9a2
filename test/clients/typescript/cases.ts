import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { GatewayError, type ChatContext, type GatewayClient } from '../../../clients/typescript/src/index.ts';
import { WORLD } from './gateway.ts';

export interface CaseContext {
  readonly baseUrl: string;
  /** With the test-environment API key. */
  readonly client: GatewayClient;
  /** With a dashboard token of the owner (every review permission). */
  readonly owner: GatewayClient;
  /** With a dashboard token of a reviewer who may not decide. */
  readonly reviewer: GatewayClient;
  /** A client whose API key the gateway does not know. */
  readonly stranger: GatewayClient;
  /** A client whose base address is one the gateway has no route under. */
  readonly lost: GatewayClient;
  /** A fresh `submitted` submission for this case. */
  readonly submission: string;
  /** Game user id of a fresh active staff member for this case. */
  readonly staff: string;
  /** The same staff member as the acting chat user of a bot command. */
  readonly staffChat: ChatContext;
}

export interface OperationCase {
  readonly success: (ctx: CaseContext) => Promise<void>;
  readonly failure: (ctx: CaseContext) => Promise<void>;
}

/** Resolves with the GatewayError `call` rejects with, after checking its envelope. */
export async function gatewayError(call: Promise<unknown>, status: number, code: string): Promise<GatewayError> {
  const error = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(GatewayError);
  const failure = error as GatewayError;
  expect({ status: failure.status, code: failure.code }).toEqual({ status, code });
  expect(failure.requestId).toMatch(/^req_[0-9A-Za-z]{16,}$/);
  expect(failure.message.length).toBeGreaterThan(0);
  return failure;
}

const chat = { chatGuildId: WORLD.guildId, actingChatUserId: WORLD.alice.chatUserId };

async function startFor(ctx: CaseContext, serverId = `srv-${randomUUID()}`) {
  const reply = await ctx.client.startShift({ gameUserId: ctx.staff, universeId: WORLD.universeId, placeId: '7', serverId });
  expect(reply.body.data.existing).toBe(false);
  return { shift: reply.body.data.shift, serverId };
}

let applicants = 0;
/** A game user id no other case applies with. */
const applicantId = (): string => `88${Date.now()}${(applicants += 1)}`;

/** 404 from a base address without routes: the error case of the metadata operations (they have no other). */
const unknownRoute = async (call: Promise<unknown>) => {
  await gatewayError(call, 404, 'not_found');
};

/** A success and an error case per operationId of the document (those of time off: time-off-cases.ts). */
export const CASES: Record<string, OperationCase> = {
  getHealth: {
    success: async ({ client }) => expect((await client.getHealth()).body.status).toBe('ok'),
    failure: ({ lost }) => unknownRoute(lost.getHealth()),
  },
  getVersion: {
    success: async ({ client }) => expect((await client.getVersion()).body.service).toBe('workspace-gateway'),
    failure: ({ lost }) => unknownRoute(lost.getVersion()),
  },
  getOpenApiDocument: {
    success: async ({ client }) => expect((await client.getOpenApiDocument()).body).toHaveProperty('paths'),
    failure: ({ lost }) => unknownRoute(lost.getOpenApiDocument()),
  },
  getReadiness: {
    success: async ({ client }) => expect((await client.getReadiness()).body).toEqual({ status: 'ready' }),
    failure: ({ lost }) => unknownRoute(lost.getReadiness()),
  },
  getMetrics: {
    success: async ({ client }) => expect((await client.getMetrics()).body).toContain('http_requests_total'),
    failure: ({ lost }) => unknownRoute(lost.getMetrics()),
  },
  getIntegration: {
    success: async ({ client }) => expect((await client.getIntegration()).body.data.environment).toBe('test'),
    failure: async ({ stranger }) => {
      await gatewayError(stranger.getIntegration(), 401, 'unauthenticated');
    },
  },
  getStaffMe: {
    success: async ({ client }) => expect((await client.getStaffMe(chat)).body.data.gameUserId).toBe(WORLD.alice.gameUserId),
    failure: async ({ client }) => {
      await gatewayError(client.getStaffMe({ ...chat, chatGuildId: '999' }), 403, 'guild_mismatch');
    },
  },
  getActivitySummary: {
    success: async ({ client }) => {
      const reply = await client.getActivitySummary(chat, { correlationId: 'bot-summary-1' });
      expect(reply.body.meta.correlationId).toBe('bot-summary-1');
      expect(reply.body.data.currentWeekMinutes).toBeGreaterThanOrEqual(0);
    },
    failure: async ({ client }) => {
      await gatewayError(client.getActivitySummary({ ...chat, actingChatUserId: '404404' }), 404, 'not_found');
    },
  },
  getStaffActivity: {
    success: async ({ client }) => {
      const reply = await client.getStaffActivity(WORLD.dmitri.gameUserId, { period: 'month' });
      expect(reply.body.data.staff.gameUserId).toBe(WORLD.dmitri.gameUserId);
    },
    failure: async ({ client }) => {
      const error = await gatewayError(
        client.getStaffActivity(WORLD.alice.gameUserId, { start: '2026-03-01T00:00:00Z' }),
        400,
        'validation_failed',
      );
      expect(error.details).toHaveProperty('issues');
    },
  },
  getActivityLeaderboard: {
    success: async ({ client }) => {
      const reply = await client.getActivityLeaderboard({ limit: 2 });
      expect(reply.body.data.entries).toHaveLength(2);
      expect(reply.body.data.entries[0]?.position).toBe(1);
    },
    failure: async ({ client }) => {
      await gatewayError(client.getActivityLeaderboard({ limit: 0 }), 400, 'validation_failed');
    },
  },
  listActiveShifts: {
    success: async (ctx) => {
      const { shift } = await startFor(ctx);
      const listed = await ctx.client.listActiveShifts();
      expect(listed.body.data.shifts.map((s) => s.id)).toContain(shift.id);
    },
    failure: async ({ client }) => {
      await gatewayError(client.listActiveShifts({ cursorId: randomUUID() }), 400, 'validation_failed');
    },
  },
  getShift: {
    success: async (ctx) => {
      const { shift } = await startFor(ctx);
      expect((await ctx.client.getShift(shift.id)).body.data.shift.status).toBe('active');
    },
    failure: async ({ client }) => {
      await gatewayError(client.getShift(randomUUID()), 404, 'not_found');
    },
  },
  startShift: {
    success: async (ctx) => {
      const body = { gameUserId: ctx.staff, universeId: WORLD.universeId, placeId: '7', serverId: 'srv-start' };
      const first = await ctx.client.startShift(body);
      expect(first.replayed).toBe(false);
      expect(first.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      const again = await ctx.client.startShift(body, { idempotencyKey: first.idempotencyKey });
      expect(again.replayed).toBe(true);
      expect(again.body).toEqual(first.body);
    },
    failure: async (ctx) => {
      const body = { gameUserId: ctx.staff, universeId: '1', placeId: '7', serverId: 'srv-start' };
      await gatewayError(ctx.client.startShift(body), 403, 'universe_not_allowed');
    },
  },
  recordShiftHeartbeat: {
    success: async (ctx) => {
      const { shift, serverId } = await startFor(ctx);
      const reply = await ctx.client.recordShiftHeartbeat(shift.id, { serverId });
      expect(reply.body.data.shift.id).toBe(shift.id);
    },
    failure: async (ctx) => {
      const { shift } = await startFor(ctx);
      await gatewayError(ctx.client.recordShiftHeartbeat(shift.id, { serverId: 'another' }), 409, 'server_mismatch');
    },
  },
  stopShift: {
    success: async (ctx) => {
      const { shift } = await startFor(ctx);
      const reply = await ctx.client.stopShift(shift.id, { reason: 'player_left' });
      expect(reply.body.data.shift.status).toBe('completed');
    },
    failure: async (ctx) => {
      const { shift } = await startFor(ctx);
      await ctx.client.stopShift(shift.id);
      await gatewayError(ctx.client.stopShift(shift.id), 409, 'shift_not_active');
    },
  },
  recordShiftHeartbeats: {
    success: async (ctx) => {
      const { shift, serverId } = await startFor(ctx);
      const missing = randomUUID();
      const reply = await ctx.client.recordShiftHeartbeats({ serverId, shiftIds: [shift.id, missing] });
      const [applied, refused] = reply.body.data.results;
      expect(applied).toMatchObject({ shiftId: shift.id, shift: { id: shift.id, status: 'active' } });
      expect(refused).toMatchObject({ shiftId: missing, error: { code: 'not_found' } });
    },
    failure: async ({ client }) => {
      await gatewayError(client.recordShiftHeartbeats({ serverId: 'srv', shiftIds: [] }), 400, 'validation_failed');
    },
  },
  stopServerShifts: {
    success: async (ctx) => {
      const { shift, serverId } = await startFor(ctx);
      const reply = await ctx.client.stopServerShifts(serverId, { reason: 'server_shutdown' });
      expect(reply.body.data.shifts.map((s) => [s.id, s.status])).toEqual([[shift.id, 'completed']]);
    },
    failure: async ({ client }) => {
      const endedAt = new Date(Date.now() + 3_600_000).toISOString();
      await gatewayError(client.stopServerShifts('srv-any', { endedAt }), 400, 'validation_failed');
    },
  },
  listSubmissions: {
    success: async ({ reviewer, submission }) => {
      const reply = await reviewer.listSubmissions({ limit: 100 });
      const pending: string[] = reply.body.data.submissions.map((s) => s.id);
      let cursor = reply.body.data.nextCursor;
      while (cursor) {
        const next = await reviewer.listSubmissions({ limit: 100, ...cursor });
        pending.push(...next.body.data.submissions.map((s) => s.id));
        cursor = next.body.data.nextCursor;
      }
      expect(pending).toContain(submission);
    },
    failure: async ({ reviewer }) => {
      await gatewayError(reviewer.listSubmissions({ limit: 101 }), 400, 'validation_failed');
    },
  },
  getSubmission: {
    success: async ({ reviewer, submission }) => {
      const reply = await reviewer.getSubmission(submission);
      expect(reply.body.data.submission).toMatchObject({ id: submission, status: 'submitted', history: [] });
    },
    failure: async ({ reviewer }) => {
      await gatewayError(reviewer.getSubmission(randomUUID()), 404, 'not_found');
    },
  },
  getApplicationStats: {
    success: async ({ reviewer }) => {
      const forms = (await reviewer.getApplicationStats()).body.data.forms;
      expect(forms.find((f) => f.formId === null)?.submitted).toBeGreaterThan(0);
    },
    failure: async ({ client }) => {
      await gatewayError(client.getApplicationStats(), 401, 'unauthenticated');
    },
  },
  listApplicationForms: {
    success: async ({ client }) => {
      const forms = (await client.listApplicationForms()).body.data.forms;
      expect(forms.map((f) => f.id)).toContain(WORLD.formId);
    },
    failure: async ({ stranger }) => {
      await gatewayError(stranger.listApplicationForms(), 401, 'unauthenticated');
    },
  },
  getApplicationForm: {
    success: async ({ client }) => {
      const form = (await client.getApplicationForm(WORLD.formId)).body.data.form;
      expect(form.questions.map((q) => [q.id, q.required])).toEqual([['why', true], ['age', true], ['tz', false]]);
    },
    failure: async ({ client }) => {
      await gatewayError(client.getApplicationForm(randomUUID()), 404, 'not_found');
    },
  },
  submitApplication: {
    success: async ({ client }) => {
      const body = { applicant: { gameUserId: applicantId() }, answers: { why: 'I like helping.', age: 20 } };
      const first = await client.submitApplication(WORLD.formId, body);
      expect(first.body.data.submission.status).toBe('submitted');
      const again = await client.submitApplication(WORLD.formId, body, { idempotencyKey: first.idempotencyKey });
      expect(again.replayed).toBe(true);
      expect(again.body).toEqual(first.body);
    },
    failure: async ({ client }) => {
      const body = { applicant: { gameUserId: applicantId() }, answers: { age: 5, tz: 'Mars' } };
      const error = await gatewayError(client.submitApplication(WORLD.formId, body), 400, 'validation_failed');
      const issues = [
        { questionId: 'why', code: 'required', message: expect.any(String) },
        { questionId: 'age', code: 'below_min', message: expect.any(String) },
        { questionId: 'tz', code: 'not_an_option', message: expect.any(String) },
      ];
      expect(error.details).toEqual({ issues });
      expect(error.answerIssues).toEqual(issues);
    },
  },
  listApplicantSubmissions: {
    success: async ({ client }) => {
      const gameUserId = applicantId();
      const body = { applicant: { gameUserId }, answers: { why: 'Because.', age: 30 } };
      const submitted = await client.submitApplication(WORLD.formId, body);
      const listed = (await client.listApplicantSubmissions(gameUserId)).body.data.submissions;
      expect(listed.map((s) => s.id)).toEqual([submitted.body.data.submission.id]);
    },
    failure: async ({ client }) => {
      const error = await gatewayError(client.listApplicantSubmissions('not-digits'), 400, 'validation_failed');
      // A request problem names a path, not a question: no answer issues.
      expect(error.details?.issues?.length).toBeGreaterThan(0);
      expect(error.answerIssues).toEqual([]);
    },
  },
  acceptSubmission: {
    success: async ({ owner, submission }) => {
      const reply = await owner.acceptSubmission(submission, { reviewNote: 'Welcome.' });
      expect(reply.body.data.status).toBe('accepted');
    },
    failure: async ({ reviewer, submission }) => {
      await gatewayError(reviewer.acceptSubmission(submission), 403, 'permission_denied');
    },
  },
  markSubmissionUnderReview: {
    success: async ({ owner, submission }) => {
      expect((await owner.markSubmissionUnderReview(submission)).body.data.status).toBe('under_review');
    },
    failure: async ({ owner, submission }) => {
      await owner.markSubmissionUnderReview(submission);
      await gatewayError(owner.markSubmissionUnderReview(submission), 409, 'invalid_state_transition');
    },
  },
  rejectSubmission: {
    success: async ({ owner, submission }) => {
      expect((await owner.rejectSubmission(submission, { reviewNote: 'Not now.' })).body.data.status).toBe('rejected');
    },
    failure: async ({ owner, submission }) => {
      await owner.rejectSubmission(submission);
      await gatewayError(owner.rejectSubmission(submission), 422, 'submission_finalized');
    },
  },
  updateSubmissionReview: {
    success: async ({ reviewer, submission }) => {
      const reply = await reviewer.updateSubmissionReview(submission, { score: 80, reviewerNotes: 'Solid.' });
      expect(reply.body.data.scoreUpdated).toBe(true);
    },
    failure: async ({ reviewer, submission }) => {
      await gatewayError(reviewer.updateSubmissionReview(submission, {}), 400, 'validation_failed');
    },
  },
};
