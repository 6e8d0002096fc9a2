import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { addSubmission, call, errorCode } from './helpers.ts';
import { freshGameUserId, get, intakeBody, submit, useIntakeWorld, type IntakeFixture } from './intake-helpers.ts';

describe.each(STORE_KINDS)('what an applicant may be told about their submissions (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: IntakeFixture;
  let token: string;

  const world = useIntakeWorld(kind);
  beforeAll(() => {
    ({ ctx, fixture, token } = world);
  });

  const status = (gameUserId: string, secret = fixture.keys.live.secret) =>
    get(ctx.inject, secret, `/v1/applications/applicants/${gameUserId}/submissions`);

  it('lists the applicant\'s submissions newest first, with status and dates only', async () => {
    const gameUserId = freshGameUserId();
    const provisioned = await addSubmission(ctx, fixture.workspace, {
      applicant: { gameUserId, gameUsername: 'eve', displayName: 'Eve' },
      createdAt: '2026-01-01T00:00:00.000Z',
      score: 80,
      reviewerNotes: 'private',
    });
    ctx.clock.set(DEFAULT_NOW);
    const first = await submit(ctx.inject, fixture.keys.live.secret, fixture.form.id, intakeBody(gameUserId));
    const firstId: string = first.json().data.submission.id;
    ctx.clock.advance(1000);
    const rejected = await call(ctx.inject, 'reject', firstId, { token, body: { reviewNote: 'not yet' } });
    expect(rejected.statusCode).toBe(200);
    ctx.clock.advance(1000);
    const closedFormSecond = await submit(ctx.inject, fixture.keys.live.secret, fixture.closedForm.id, intakeBody(gameUserId));
    expect(errorCode(closedFormSecond)).toBe('form_closed');

    const res = await status(gameUserId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        submissions: [
          {
            id: firstId,
            formId: fixture.form.id,
            formName: 'Moderator application',
            status: 'rejected',
            createdAt: new Date(DEFAULT_NOW).toISOString(),
            decidedAt: new Date(DEFAULT_NOW + 1000).toISOString(),
          },
          { id: provisioned, formId: null, formName: null, status: 'submitted', createdAt: '2026-01-01T00:00:00.000Z', decidedAt: null },
        ],
      },
      meta: { requestId: res.headers['x-request-id'], correlationId: res.headers['x-request-id'] },
    });
    expect(res.body).not.toMatch(/private|not yet|score/);
  });

  it('sees only the key\'s environment and workspace', async () => {
    const gameUserId = freshGameUserId();
    ctx.clock.set(DEFAULT_NOW);
    await submit(ctx.inject, fixture.keys.test.secret, fixture.form.id, intakeBody(gameUserId));
    expect((await status(gameUserId)).json().data.submissions).toEqual([]);
    expect((await status(gameUserId, fixture.keys.test.secret)).json().data.submissions).toHaveLength(1);
    expect((await status(gameUserId, fixture.second.keys.test.secret)).json().data.submissions).toEqual([]);
  });

  it('shows at most the last 20', async () => {
    const gameUserId = freshGameUserId();
    const ids: string[] = [];
    for (let i = 0; i < 22; i += 1) {
      ctx.clock.set(DEFAULT_NOW + i * 1000);
      const res = await submit(ctx.inject, fixture.keys.live.secret, fixture.form.id, intakeBody(gameUserId));
      const id: string = res.json().data.submission.id;
      ids.push(id);
      expect((await call(ctx.inject, 'accept', id, { token })).statusCode).toBe(200);
    }
    const listed = (await status(gameUserId)).json().data.submissions as Array<{ id: string; status: string }>;
    expect(listed.map((s) => s.id)).toEqual(ids.slice(2).reverse());
    expect(new Set(listed.map((s) => s.status))).toEqual(new Set(['accepted']));
  });

  it('an applicant with none gets an empty list; an id that is not 1..32 digits is 400', async () => {
    expect((await status('99999999999')).json().data.submissions).toEqual([]);
    for (const bad of ['abc', '1'.repeat(33)]) {
      const res = await status(bad);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
    }
  });

  it('needs applications:read and the applications feature', async () => {
    expect(errorCode(await status('1', fixture.keys.writeOnly.secret))).toBe('insufficient_scope');
    expect(errorCode(await status('1', fixture.featureOff.secret))).toBe('feature_disabled');
    expect((await status('1', fixture.keys.readOnly.secret)).statusCode).toBe(200);
  });
});
