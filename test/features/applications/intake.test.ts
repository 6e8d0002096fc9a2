import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { call, commandsFor, errorCode, eventsFor, newKey, staffWithGameUser, submissionRow } from './helpers.ts';
import {
  freshGameUserId,
  GOOD_ANSWERS,
  intakeBody,
  submit,
  useIntakeWorld,
  type IntakeFixture,
} from './intake-helpers.ts';

const ISO_NOW = new Date(DEFAULT_NOW).toISOString();
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(STORE_KINDS)('application intake through an API key (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: IntakeFixture;
  let token: string;

  const world = useIntakeWorld(kind);
  beforeAll(() => {
    ({ ctx, fixture, token } = world);
  });

  const send = (body: unknown, secret = fixture.keys.live.secret, formId = fixture.form.id, options = {}) =>
    submit(ctx.inject, secret, formId, body, options);

  it('records a submitted submission in the key\'s environment with one command and one event', async () => {
    ctx.clock.set(DEFAULT_NOW);
    const gameUserId = freshGameUserId();
    const res = await send(intakeBody(Number(gameUserId)), fixture.keys.test.secret);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      data: {
        submission: {
          id: UUID,
          formId: fixture.form.id,
          formName: 'Moderator application',
          status: 'submitted',
          environment: 'test',
          applicant: { gameUserId, gameUsername: 'bob', displayName: 'Bob', chatUserId: '7771' },
          score: null,
          createdAt: ISO_NOW,
          reviewedAt: null,
          decidedAt: null,
        },
        commandId: UUID,
        eventId: UUID,
      },
      meta: { requestId: res.headers['x-request-id'], correlationId: res.headers['x-request-id'] },
    });
    const id: string = body.data.submission.id;
    const row = await submissionRow(ctx, id);
    expect(row).toMatchObject({
      workspace_id: fixture.ids.workspaceId,
      form_id: fixture.form.id,
      environment: 'test',
      game_user_id: gameUserId,
      status: 'submitted',
    });
    // The answers in the form's question order, trimmed, with the labels they were asked under.
    expect(JSON.parse(row.answers)).toEqual([
      { questionId: 'why', label: 'Why do you want to join?', type: 'long_text', value: 'I like helping.' },
      { questionId: 'age', label: 'How old are you?', type: 'number', value: 19 },
      { questionId: 'tz', label: 'Time zone', type: 'choice', value: 'EU' },
      { questionId: 'rules', label: 'Do you accept the rules?', type: 'boolean', value: true },
      { questionId: 'langs', label: 'Languages', type: 'multi_choice', value: ['en', 'de'] },
      { questionId: 'nick', label: 'Nickname', type: 'short_text', value: 'bobby' },
    ]);
    const commands = await commandsFor(ctx, id);
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({
      id: body.data.commandId,
      type: 'application.submission.submit',
      actor_type: 'api_key',
      actor_id: fixture.ids.applicationId,
    });
    expect(JSON.parse(commands[0]!.payload)).toEqual({ submissionId: id, formId: fixture.form.id });
    const events = await eventsFor(ctx, id);
    expect(events.map((e) => [e.id, e.type])).toEqual([[body.data.eventId, 'application.submission.submitted']]);
    // Neither record carries the answers or the applicant's identity.
    for (const text of [commands[0]!.payload, events[0]!.payload]) {
      expect(text).not.toContain('helping');
      expect(text).not.toContain(gameUserId);
    }
  });

  it('applicant names left out are null; a numeric gameUserId is stored as its digits', async () => {
    const res = await send({ applicant: { gameUserId: 123456789 }, answers: GOOD_ANSWERS });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.submission.applicant).toEqual({
      gameUserId: '123456789',
      gameUsername: null,
      displayName: null,
      chatUserId: null,
    });
    expect(res.json().data.submission.environment).toBe('live');
  });

  it('an idempotent retry replays the result and creates nothing more; the key with another body is 422', async () => {
    const key = newKey();
    const body = intakeBody();
    const first = await send(body, undefined, undefined, { key });
    const again = await send(body, undefined, undefined, { key });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const rows = await ctx.store.db
      .selectFrom('submissions')
      .select('id')
      .where('game_user_id', '=', String(body.applicant.gameUserId))
      .execute();
    expect(rows).toHaveLength(1);
    const reused = await send(intakeBody(), undefined, undefined, { key });
    expect(reused.statusCode).toBe(422);
    expect(errorCode(reused)).toBe('idempotency_key_reused');
  });

  it('needs an Idempotency-Key (400) and a JSON body (415)', async () => {
    const missing = await send(intakeBody(), undefined, undefined, { key: null });
    expect(missing.statusCode).toBe(400);
    expect(errorCode(missing)).toBe('idempotency_key_required');
    for (const contentType of [null, 'text/plain']) {
      const res = await send(intakeBody(), undefined, undefined, { contentType });
      expect(res.statusCode).toBe(415);
      expect(errorCode(res)).toBe('unsupported_media_type');
    }
  });

  it('a body over 64 KiB is 413 payload_too_large', async () => {
    const res = await send(intakeBody(freshGameUserId(), { ...GOOD_ANSWERS, why: 'x'.repeat(70_000) }));
    expect(res.statusCode).toBe(413);
    expect(errorCode(res)).toBe('payload_too_large');
  });

  it('a closed form is 409 form_closed and records nothing', async () => {
    const gameUserId = freshGameUserId();
    const res = await send(intakeBody(gameUserId), undefined, fixture.closedForm.id);
    expect(res.statusCode).toBe(409);
    expect(errorCode(res)).toBe('form_closed');
    expect(await ctx.store.db.selectFrom('submissions').select('id').where('game_user_id', '=', gameUserId).execute()).toEqual([]);
  });

  it('a second submission while one is pending is 409 submission_pending naming it; another form or environment is not', async () => {
    const gameUserId = freshGameUserId();
    const first = await send(intakeBody(gameUserId));
    const firstId: string = first.json().data.submission.id;
    const second = await send(intakeBody(gameUserId));
    expect(second.statusCode).toBe(409);
    expect(errorCode(second)).toBe('submission_pending');
    expect(second.json().error.details).toEqual({ submissionId: firstId });
    // Under review is still pending.
    expect((await call(ctx.inject, 'mark-under-review', firstId, { token })).statusCode).toBe(200);
    expect(errorCode(await send(intakeBody(gameUserId)))).toBe('submission_pending');
    // The test environment is another queue.
    expect((await send(intakeBody(gameUserId), fixture.keys.test.secret)).statusCode).toBe(200);
    // Accepted is no longer pending.
    expect((await call(ctx.inject, 'accept', firstId, { token })).statusCode).toBe(200);
    expect((await send(intakeBody(gameUserId))).statusCode).toBe(200);
  });

  it('within cooldownDays of a rejection is 409 application_cooldown with retryAfter; after it, accepted', async () => {
    ctx.clock.set(DEFAULT_NOW);
    const gameUserId = freshGameUserId();
    const first = await send(intakeBody(gameUserId));
    const id: string = first.json().data.submission.id;
    ctx.clock.advance(60_000);
    const rejectedAt = ctx.clock.now();
    expect((await call(ctx.inject, 'reject', id, { token })).statusCode).toBe(200);
    const retryAfter = new Date(rejectedAt + 14 * DAY_MS).toISOString();

    ctx.clock.advance(DAY_MS);
    const early = await send(intakeBody(gameUserId));
    expect(early.statusCode).toBe(409);
    expect(errorCode(early)).toBe('application_cooldown');
    expect(early.json().error.details).toEqual({ retryAfter });

    ctx.clock.set(rejectedAt + 14 * DAY_MS - 1);
    expect(errorCode(await send(intakeBody(gameUserId)))).toBe('application_cooldown');
    ctx.clock.set(rejectedAt + 14 * DAY_MS);
    const later = await send(intakeBody(gameUserId));
    expect(later.statusCode).toBe(200);
    ctx.clock.set(DEFAULT_NOW);
  });

  it('another workspace\'s form, an unknown id or one that is not a uuid is 404', async () => {
    for (const formId of [fixture.otherForm.id, '00000000-0000-4000-8000-000000000000', 'moderator']) {
      const res = await send(intakeBody(), undefined, formId);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    }
  });

  it('needs applications:write (403 insufficient_scope) and the applications feature (403 feature_disabled)', async () => {
    for (const secret of [fixture.keys.readOnly.secret, fixture.keys.activityOnly.secret]) {
      const res = await send(intakeBody(), secret);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'insufficient_scope', details: { requiredScope: 'applications:write' } });
    }
    const off = await send(intakeBody(), fixture.featureOff.secret);
    expect(off.statusCode).toBe(403);
    expect(errorCode(off)).toBe('feature_disabled');
    expect((await send(intakeBody(), fixture.keys.writeOnly.secret)).statusCode).toBe(200);
    const none = await ctx.inject({ method: 'POST', url: `/v1/applications/forms/${fixture.form.id}/submissions` });
    expect(none.statusCode).toBe(401);
  });

  it('accept creates a staff profile for an applicant who sent no names, named after the game user id', async () => {
    const gameUserId = freshGameUserId();
    const res = await send({ applicant: { gameUserId }, answers: GOOD_ANSWERS });
    const id: string = res.json().data.submission.id;
    const accepted = await call(ctx.inject, 'accept', id, { token, body: { createStaffProfile: true } });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toMatchObject({ staffProfileCreated: true, staffProfileId: UUID });
    const staff = await staffWithGameUser(ctx, fixture.ids.workspaceId, gameUserId);
    expect(staff).toHaveLength(1);
    expect(staff[0]).toMatchObject({ display_name: gameUserId, game_username: gameUserId, chat_user_id: null, status: 'active' });
  });

  it('accept names the profile after the game username when only that was sent', async () => {
    const gameUserId = freshGameUserId();
    const res = await send({ applicant: { gameUserId, gameUsername: 'roblox_dave' }, answers: GOOD_ANSWERS });
    const id: string = res.json().data.submission.id;
    expect((await call(ctx.inject, 'accept', id, { token, body: { createStaffProfile: true } })).statusCode).toBe(200);
    const [staff] = await staffWithGameUser(ctx, fixture.ids.workspaceId, gameUserId);
    expect(staff).toMatchObject({ display_name: 'roblox_dave', game_username: 'roblox_dave' });
  });
});
