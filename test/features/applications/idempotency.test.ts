import { describe, expect, it } from 'vitest';
import { dashboardToken, SECOND_REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import {
  addSubmission,
  call,
  commandsFor,
  errorCode,
  eventsFor,
  newKey,
  OPERATIONS,
  submissionRow,
  VALID_BODY,
  useReviewWorld,
} from './helpers.ts';

describe.each(STORE_KINDS)('application review: idempotency (%s)', (kind) => {
  const world = useReviewWorld(kind);

  it.each(OPERATIONS)('%s replayed with the same key returns the same body and writes nothing more', async (operation) => {
    const id = await world.submission();
    const key = newKey();
    const first = await call(world.ctx.inject, operation, id, { token: world.token, key, body: VALID_BODY[operation] });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    world.ctx.clock.advance(5_000);
    const again = await call(world.ctx.inject, operation, id, { token: world.token, key, body: VALID_BODY[operation] });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // The replay is a new request with its own id; the body (meta included) is the original one.
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(again.json().meta.requestId).toBe(first.headers['x-request-id']);
    expect(await commandsFor(world.ctx, id)).toHaveLength(1);
    expect(await eventsFor(world.ctx, id)).toHaveLength(1);
  });

  it('the same body with keys in another order is the same request', async () => {
    const id = await world.submission();
    const key = newKey();
    const first = await call(world.ctx.inject, 'review', id, { token: world.token, key, raw: '{"score":5,"reviewerNotes":"a"}' });
    const again = await call(world.ctx.inject, 'review', id, { token: world.token, key, raw: '{"reviewerNotes":"a","score":5}' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it('replaying an accept after the submission is final returns the original 200, not 422', async () => {
    const id = await world.submission();
    const key = newKey();
    const first = await call(world.ctx.inject, 'accept', id, { token: world.token, key });
    const again = await call(world.ctx.inject, 'accept', id, { token: world.token, key });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const fresh = await call(world.ctx.inject, 'accept', id, { token: world.token });
    expect(fresh.statusCode).toBe(422);
    expect(errorCode(fresh)).toBe('submission_finalized');
  });

  it('a 4xx outcome is stored and replayed as is, even after the state changes', async () => {
    const id = await world.submission({ status: 'under_review' });
    const key = newKey();
    const conflict = await call(world.ctx.inject, 'mark-under-review', id, { token: world.token, key });
    expect(conflict.statusCode).toBe(409);
    await call(world.ctx.inject, 'accept', id, { token: world.token });
    const again = await call(world.ctx.inject, 'mark-under-review', id, { token: world.token, key });
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(conflict.json());
  });

  it('the same key with a different body is 422 idempotency_key_reused', async () => {
    const id = await world.submission();
    const key = newKey();
    expect((await call(world.ctx.inject, 'review', id, { token: world.token, key, body: { score: 1 } })).statusCode).toBe(200);
    const res = await call(world.ctx.inject, 'review', id, { token: world.token, key, body: { score: 2 } });
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('idempotency_key_reused');
    expect((await submissionRow(world.ctx, id)).score).toBe(1);
  });

  it('the same key on another operation or submission is 422 idempotency_key_reused', async () => {
    const id = await world.submission();
    const other = await world.submission();
    const key = newKey();
    expect((await call(world.ctx.inject, 'mark-under-review', id, { token: world.token, key })).statusCode).toBe(200);
    const otherOperation = await call(world.ctx.inject, 'reject', id, { token: world.token, key });
    expect(otherOperation.statusCode).toBe(422);
    expect(errorCode(otherOperation)).toBe('idempotency_key_reused');
    const otherSubmission = await call(world.ctx.inject, 'mark-under-review', other, { token: world.token, key });
    expect(otherSubmission.statusCode).toBe(422);
    expect(errorCode(otherSubmission)).toBe('idempotency_key_reused');
    expect((await submissionRow(world.ctx, id)).status).toBe('under_review');
    expect((await submissionRow(world.ctx, other)).status).toBe('submitted');
  });

  it('keys are scoped to the dashboard user: another user may use the same key', async () => {
    const mine = await world.submission();
    const theirs = await addSubmission(world.ctx, world.fixture.second.workspace);
    const key = newKey();
    const a = await call(world.ctx.inject, 'accept', mine, { token: world.token, key });
    const b = await call(world.ctx.inject, 'accept', theirs, { token: await dashboardToken(SECOND_REVIEWER_USER_ID), key });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().data.submissionId).toBe(theirs);
  });

  it.each(OPERATIONS)('%s without Idempotency-Key is 400 idempotency_key_required', async (operation) => {
    const id = await world.submission();
    const res = await call(world.ctx.inject, operation, id, { token: world.token, key: null, body: VALID_BODY[operation] });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('idempotency_key_required');
    expect((await submissionRow(world.ctx, id)).status).toBe('submitted');
    expect(await commandsFor(world.ctx, id)).toHaveLength(0);
  });

  it('an empty Idempotency-Key counts as missing', async () => {
    const id = await world.submission();
    const res = await call(world.ctx.inject, 'accept', id, { token: world.token, key: '' });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('idempotency_key_required');
  });

  it('an Idempotency-Key over 255 characters is 400 invalid_idempotency_key', async () => {
    const id = await world.submission();
    const res = await call(world.ctx.inject, 'accept', id, { token: world.token, key: 'k'.repeat(256) });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('invalid_idempotency_key');
    expect((await call(world.ctx.inject, 'accept', id, { token: world.token, key: 'k'.repeat(255) })).statusCode).toBe(200);
  });

  it('an Idempotency-Key with characters outside printable ASCII is 400 invalid_idempotency_key', async () => {
    const id = await world.submission();
    const res = await call(world.ctx.inject, 'accept', id, { token: world.token, key: 'cl\u00e9' });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('invalid_idempotency_key');
  });

  it('the key is checked before the lookup: no key on an unknown submission is 400', async () => {
    const res = await call(world.ctx.inject, 'accept', '6a1f3c52-8d0e-4f7b-9c2a-1b3d5e7f9a0b', { token: world.token, key: null });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('idempotency_key_required');
  });
});
