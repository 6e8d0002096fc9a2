import { describe, expect, it } from 'vitest';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import {
  call,
  commandsFor,
  errorCode,
  eventsFor,
  submissionRow,
  useReviewWorld,
} from './helpers.ts';

const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

describe.each(STORE_KINDS)('application review: PATCH review (%s)', (kind) => {
  const world = useReviewWorld(kind);
  const patch = (id: string, body: unknown) => call(world.ctx.inject, 'review', id, { token: world.token, body });

  it('updates score and notes, keeps the status and sets reviewedAt to now', async () => {
    const id = await world.submission();
    world.ctx.clock.advance(60_000);
    const now = world.ctx.clock.now();
    const res = await patch(id, { score: 87.5, reviewerNotes: 'strong answers' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        submissionId: id,
        status: 'submitted',
        score: 87.5,
        scoreUpdated: true,
        reviewerNotesUpdated: true,
        reviewedAt: new Date(now).toISOString(),
        commandId: UUID,
        eventId: UUID,
      },
      meta: { requestId: res.headers['x-request-id'], correlationId: res.headers['x-request-id'] },
    });
    const row = await submissionRow(world.ctx, id);
    expect(row).toMatchObject({ status: 'submitted', score: 87.5, reviewer_notes: 'strong answers' });
    expect(Number(row.reviewed_at)).toBe(now);
    expect(now).toBeGreaterThan(DEFAULT_NOW);
  });

  it('keeps an under_review submission under review', async () => {
    const id = await world.submission({ status: 'under_review' });
    const res = await patch(id, { score: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('under_review');
    expect((await submissionRow(world.ctx, id)).status).toBe('under_review');
  });

  it('omitted fields are left unchanged (score only)', async () => {
    const id = await world.submission({ score: 40, reviewerNotes: 'first pass' });
    const res = await patch(id, { score: 60 });
    expect(res.json().data).toMatchObject({ score: 60, scoreUpdated: true, reviewerNotesUpdated: false });
    expect(await submissionRow(world.ctx, id)).toMatchObject({ score: 60, reviewer_notes: 'first pass' });
  });

  it('omitted fields are left unchanged (notes only); the response reports the current score', async () => {
    const id = await world.submission({ score: 40, reviewerNotes: 'first pass' });
    const res = await patch(id, { reviewerNotes: 'second pass' });
    expect(res.json().data).toMatchObject({ score: 40, scoreUpdated: false, reviewerNotesUpdated: true });
    expect(await submissionRow(world.ctx, id)).toMatchObject({ score: 40, reviewer_notes: 'second pass' });
  });

  it('explicit null clears the score', async () => {
    const id = await world.submission({ score: 40, reviewerNotes: 'keep' });
    const res = await patch(id, { score: null });
    expect(res.json().data).toMatchObject({ score: null, scoreUpdated: true, reviewerNotesUpdated: false });
    expect(await submissionRow(world.ctx, id)).toMatchObject({ score: null, reviewer_notes: 'keep' });
  });

  it('explicit null clears the notes', async () => {
    const id = await world.submission({ score: 40, reviewerNotes: 'drop me' });
    const res = await patch(id, { reviewerNotes: null });
    expect(res.json().data).toMatchObject({ score: 40, scoreUpdated: false, reviewerNotesUpdated: true });
    expect((await submissionRow(world.ctx, id)).reviewer_notes).toBeNull();
  });

  it('an empty reviewerNotes string clears the notes (stored as null)', async () => {
    const id = await world.submission({ reviewerNotes: 'drop me' });
    const res = await patch(id, { reviewerNotes: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.reviewerNotesUpdated).toBe(true);
    expect((await submissionRow(world.ctx, id)).reviewer_notes).toBeNull();
  });

  it('scoreUpdated is true when the patch carried the score, even with the same value', async () => {
    const id = await world.submission({ score: 50 });
    const res = await patch(id, { score: 50 });
    expect(res.json().data).toMatchObject({ score: 50, scoreUpdated: true, reviewerNotesUpdated: false });
  });

  it.each([0, 100, 0.25, 99.99])('accepts the score %s (0 to 100 inclusive)', async (score) => {
    const id = await world.submission();
    const res = await patch(id, { score });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.score).toBe(score);
  });

  it('accepts notes of exactly 5000 characters', async () => {
    const id = await world.submission();
    const res = await patch(id, { reviewerNotes: 'n'.repeat(5000) });
    expect(res.statusCode).toBe(200);
    expect((await submissionRow(world.ctx, id)).reviewer_notes).toHaveLength(5000);
  });

  it('records one update_review command and one review_updated event, both returned', async () => {
    const id = await world.submission({ score: 10 });
    const res = await patch(id, { reviewerNotes: 'n' });
    const { commandId, eventId } = res.json().data;
    const commands = await commandsFor(world.ctx, id);
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({
      id: commandId,
      type: 'application.submission.update_review',
      actor_type: 'user',
      actor_id: REVIEWER_USER_ID,
    });
    expect(JSON.parse(commands[0]!.payload)).toEqual({ submissionId: id, reviewerNotes: 'n' });
    const events = await eventsFor(world.ctx, id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: eventId, command_id: commandId, type: 'application.submission.review_updated' });
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      submissionId: id,
      status: 'submitted',
      score: 10,
      reviewerNotes: 'n',
      scoreUpdated: false,
      reviewerNotesUpdated: true,
    });
  });

  it.each(['accepted', 'rejected'] as const)('on a %s submission is 422 submission_finalized', async (status) => {
    const id = await world.submission({ status, score: 5 });
    const res = await patch(id, { score: 99 });
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('submission_finalized');
    expect(await submissionRow(world.ctx, id)).toMatchObject({ status, score: 5 });
  });

  describe('400 for malformed patches', () => {
    const cases: Array<[string, { body?: unknown; raw?: string }]> = [
      ['no body at all', {}],
      ['an empty body sent as application/json', { raw: '' }],
      ['an empty object', { body: {} }],
      ['only an unknown property', { body: { foo: 1 } }],
      ['a known and an unknown property', { body: { score: 5, foo: 1 } }],
      ['status (not patchable)', { body: { status: 'accepted' } }],
      ['a score given as a string', { body: { score: '50' } }],
      ['a boolean score', { body: { score: true } }],
      ['a score above 100', { body: { score: 100.01 } }],
      ['a negative score', { body: { score: -1 } }],
      ['notes over 5000 characters', { body: { reviewerNotes: 'n'.repeat(5001) } }],
      ['notes that are not a string', { body: { reviewerNotes: 12 } }],
      ['a null body', { body: null }],
      ['an array body', { body: [{ score: 5 }] }],
      ['a number body', { body: 5 }],
    ];
    it.each(cases)('%s is 400 validation_failed', async (_label, payload) => {
      const id = await world.submission({ score: 1 });
      const res = await call(world.ctx.inject, 'review', id, { token: world.token, ...payload });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
      expect(Array.isArray(res.json().error.details.issues)).toBe(true);
      expect(await submissionRow(world.ctx, id)).toMatchObject({ score: 1, reviewed_at: null });
      expect(await commandsFor(world.ctx, id)).toHaveLength(0);
    });

    it('malformed JSON is 400 invalid_json', async () => {
      const id = await world.submission();
      const res = await call(world.ctx.inject, 'review', id, { token: world.token, raw: '{"score": 5,' });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('invalid_json');
    });

    it('names the offending property in details.issues', async () => {
      const id = await world.submission();
      const res = await patch(id, { score: 5, foo: 1 });
      expect(res.json().error.details.issues).toEqual([{ path: 'body.foo', message: 'is not a known property' }]);
    });
  });
});
