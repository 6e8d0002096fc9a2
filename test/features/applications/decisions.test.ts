import { describe, expect, it } from 'vitest';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import {
  call,
  commandsFor,
  errorCode,
  eventsFor,
  newKey,
  submissionRow,
  type ReviewOperation,
  useReviewWorld,
} from './helpers.ts';

const ISO_NOW = new Date(DEFAULT_NOW).toISOString();
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

describe.each(STORE_KINDS)('application review: accept, mark-under-review, reject (%s)', (kind) => {
  const world = useReviewWorld(kind);

  describe('mark-under-review', () => {
    it('moves a submitted submission to under_review and sets reviewedAt', async () => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, 'mark-under-review', id, { token: world.token, body: { reviewNote: 'taking a look' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: { submissionId: id, status: 'under_review', reviewedAt: ISO_NOW, commandId: UUID, eventId: UUID },
        meta: { requestId: res.headers['x-request-id'], correlationId: res.headers['x-request-id'] },
      });
      const row = await submissionRow(world.ctx, id);
      expect(row.status).toBe('under_review');
      expect(Number(row.reviewed_at)).toBe(DEFAULT_NOW);
    });

    it('from under_review is 409 invalid_state_transition', async () => {
      const id = await world.submission({ status: 'under_review' });
      const res = await call(world.ctx.inject, 'mark-under-review', id, { token: world.token });
      expect(res.statusCode).toBe(409);
      expect(errorCode(res)).toBe('invalid_state_transition');
      expect(res.json().error.details).toEqual({ status: 'under_review' });
      expect(await commandsFor(world.ctx, id)).toHaveLength(0);
    });
  });

  describe('accept', () => {
    it.each(['submitted', 'under_review'] as const)('accepts a %s submission', async (status) => {
      const id = await world.submission({ status });
      const res = await call(world.ctx.inject, 'accept', id, { token: world.token });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        submissionId: id,
        status: 'accepted',
        acceptedAt: ISO_NOW,
        staffProfileCreated: false,
        staffProfileId: null,
        commandId: UUID,
        eventId: UUID,
      });
      const row = await submissionRow(world.ctx, id);
      expect(row.status).toBe('accepted');
      expect(Number(row.accepted_at)).toBe(DEFAULT_NOW);
      expect(row.staff_profile_id).toBeNull();
    });

    it('answers with X-Request-Id equal to meta.requestId and echoes X-Correlation-Id', async () => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, 'accept', id, { token: world.token, headers: { 'x-correlation-id': 'trace-42' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]{16,}$/);
      expect(res.json().meta).toEqual({ requestId: res.headers['x-request-id'], correlationId: 'trace-42' });
    });

    it('a malformed X-Correlation-Id is 400', async () => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, 'accept', id, { token: world.token, headers: { 'x-correlation-id': 'x'.repeat(129) } });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
    });
  });

  describe('reject', () => {
    it.each(['submitted', 'under_review'] as const)('rejects a %s submission and sets rejectedAt', async (status) => {
      const id = await world.submission({ status });
      const res = await call(world.ctx.inject, 'reject', id, { token: world.token, body: { reviewNote: 'not this time' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        submissionId: id,
        status: 'rejected',
        rejectedAt: ISO_NOW,
        commandId: UUID,
        eventId: UUID,
      });
      const row = await submissionRow(world.ctx, id);
      expect(row.status).toBe('rejected');
      expect(Number(row.rejected_at)).toBe(DEFAULT_NOW);
    });
  });

  describe('finalized submissions', () => {
    const cases: Array<[ReviewOperation, 'accepted' | 'rejected']> = [];
    for (const operation of ['accept', 'mark-under-review', 'reject', 'review'] as const) {
      for (const status of ['accepted', 'rejected'] as const) cases.push([operation, status]);
    }
    it.each(cases)('%s on a %s submission is 422 submission_finalized', async (operation, status) => {
      const id = await world.submission({ status });
      const res = await call(world.ctx.inject, operation, id, {
        token: world.token,
        ...(operation === 'review' ? { body: { score: 10 } } : {}),
      });
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('submission_finalized');
      expect(res.json().error.details).toEqual({ status });
      expect((await submissionRow(world.ctx, id)).status).toBe(status);
      expect(await commandsFor(world.ctx, id)).toHaveLength(0);
    });

    it('a submission accepted through the API cannot then be rejected', async () => {
      const id = await world.submission();
      expect((await call(world.ctx.inject, 'accept', id, { token: world.token })).statusCode).toBe(200);
      const res = await call(world.ctx.inject, 'reject', id, { token: world.token });
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('submission_finalized');
      expect((await submissionRow(world.ctx, id)).status).toBe('accepted');
    });
  });

  describe('commands and events', () => {
    const expectations: Array<[ReviewOperation, string, string, string]> = [
      ['accept', 'application.submission.accept', 'application.submission.accepted', 'accepted'],
      ['mark-under-review', 'application.submission.mark_under_review', 'application.submission.under_review', 'under_review'],
      ['reject', 'application.submission.reject', 'application.submission.rejected', 'rejected'],
    ];
    it.each(expectations)(
      '%s records one %s command and one %s event in the same transaction',
      async (operation, commandType, eventType, status) => {
        const id = await world.submission();
        const key = newKey();
        const res = await call(world.ctx.inject, operation, id, { token: world.token, key, body: { reviewNote: 'note for the log' } });
        expect(res.statusCode).toBe(200);
        const { commandId, eventId } = res.json().data;

        const commands = await commandsFor(world.ctx, id);
        expect(commands).toHaveLength(1);
        expect(commands[0]).toMatchObject({
          id: commandId,
          workspace_id: world.fixture.ids.workspaceId,
          type: commandType,
          actor_type: 'user',
          actor_id: REVIEWER_USER_ID,
          submission_id: id,
          request_id: res.headers['x-request-id'],
          idempotency_key: key,
        });
        expect(JSON.parse(commands[0]!.payload)).toEqual({ submissionId: id, reviewNote: 'note for the log' });

        const events = await eventsFor(world.ctx, id);
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ id: eventId, command_id: commandId, type: eventType });
        expect(JSON.parse(events[0]!.payload)).toMatchObject({
          submissionId: id,
          status,
          reviewNote: 'note for the log',
        });
      },
    );

    it('reviewNote does not overwrite reviewerNotes', async () => {
      const id = await world.submission({ reviewerNotes: 'keep me', score: 70 });
      await call(world.ctx.inject, 'mark-under-review', id, { token: world.token, body: { reviewNote: 'first' } });
      await call(world.ctx.inject, 'accept', id, { token: world.token, body: { reviewNote: 'second' } });
      const row = await submissionRow(world.ctx, id);
      expect(row.reviewer_notes).toBe('keep me');
      expect(row.score).toBe(70);
    });

    it('without a reviewNote the event carries reviewNote null', async () => {
      const id = await world.submission();
      await call(world.ctx.inject, 'reject', id, { token: world.token });
      const [event] = await eventsFor(world.ctx, id);
      expect(JSON.parse(event!.payload)).toMatchObject({ submissionId: id, status: 'rejected', reviewNote: null });
    });
  });

  describe('request bodies', () => {
    it.each(['accept', 'mark-under-review', 'reject'] as const)('%s takes no body at all', async (operation) => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, operation, id, { token: world.token });
      expect(res.statusCode).toBe(200);
    });

    it.each(['accept', 'mark-under-review', 'reject'] as const)('%s takes an empty object', async (operation) => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, operation, id, { token: world.token, body: {} });
      expect(res.statusCode).toBe(200);
    });

    it.each(['accept', 'mark-under-review', 'reject'] as const)(
      '%s takes an empty body sent as application/json',
      async (operation) => {
        const id = await world.submission();
        const res = await call(world.ctx.inject, operation, id, { token: world.token, raw: '' });
        expect(res.statusCode).toBe(200);
      },
    );

    it.each(['accept', 'mark-under-review', 'reject'] as const)('%s accepts a reviewNote of 5000 characters', async (operation) => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, operation, id, { token: world.token, body: { reviewNote: 'n'.repeat(5000) } });
      expect(res.statusCode).toBe(200);
    });

    const bad: Array<[string, unknown]> = [
      ['a reviewNote over 5000 characters', { reviewNote: 'n'.repeat(5001) }],
      ['a reviewNote that is not a string', { reviewNote: 42 }],
      ['an unknown property', { reviewNote: 'ok', extra: true }],
      ['an array body', [{ reviewNote: 'ok' }]],
      ['a string body', 'accept'],
    ];
    for (const operation of ['accept', 'mark-under-review', 'reject'] as const) {
      it.each(bad)(`${operation} with %s is 400 validation_failed`, async (_label, body) => {
        const id = await world.submission();
        const res = await call(world.ctx.inject, operation, id, { token: world.token, body });
        expect(res.statusCode).toBe(400);
        expect(errorCode(res)).toBe('validation_failed');
        expect(res.json().error.details.issues.length).toBeGreaterThan(0);
        expect((await submissionRow(world.ctx, id)).status).toBe('submitted');
      });
    }

    it('accept with createStaffProfile that is not a boolean is 400 (no coercion)', async () => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, 'accept', id, { token: world.token, body: { createStaffProfile: 'true' } });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
    });

    it.each(['accept', 'mark-under-review', 'reject'] as const)('%s with malformed JSON is 400 invalid_json', async (operation) => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, operation, id, { token: world.token, raw: '{"reviewNote":' });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('invalid_json');
    });

    it('a body that is not JSON is 415 unsupported_media_type', async () => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, 'accept', id, { token: world.token, raw: 'reviewNote=hi', contentType: 'text/plain' });
      expect(res.statusCode).toBe(415);
      expect(errorCode(res)).toBe('unsupported_media_type');
    });

    it('validation comes before lookup: a bad body on an unknown submission is 400', async () => {
      const res = await call(world.ctx.inject, 'reject', '6a1f3c52-8d0e-4f7b-9c2a-1b3d5e7f9a0b', {
        token: world.token,
        body: { reviewNote: 1 },
      });
      expect(res.statusCode).toBe(400);
    });
  });
});
