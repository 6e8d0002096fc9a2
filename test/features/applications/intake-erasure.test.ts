import { beforeAll, describe, expect, it } from 'vitest';
import { eraseGameUser } from '../../../src/features/erasure/service.ts';
import type { TestContext } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { columnsContaining } from '../erasure/tables.ts';
import { call, errorCode, submissionRow } from './helpers.ts';
import { get, submit, useIntakeWorld, type IntakeFixture } from './intake-helpers.ts';

/** An applicant whose values are found nowhere else. */
const APPLICANT = { gameUserId: '645001239876', gameUsername: 'qwyllErasable', displayName: 'Qwyll Erasable', chatUserId: '99988877766' };
const ANSWER = 'Qwyll writes about a secret hobby';

describe.each(STORE_KINDS)('erasing an applicant who applied through an API key (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: IntakeFixture;
  let token: string;

  const world = useIntakeWorld(kind);
  beforeAll(() => {
    ({ ctx, fixture, token } = world);
  });

  it('leaves no copy of their identity or answers: submission, stored responses, records', async () => {
    const body = { applicant: APPLICANT, answers: { why: ANSWER, age: 30, rules: false } };
    const first = await submit(ctx.inject, fixture.keys.live.secret, fixture.form.id, body);
    expect(first.statusCode).toBe(200);
    const pending = await submit(ctx.inject, fixture.keys.live.secret, fixture.form.id, body);
    expect(pending.statusCode).toBe(409);
    expect((await submit(ctx.inject, fixture.keys.test.secret, fixture.closedForm.id, body)).statusCode).toBe(409);
    for (const value of [...Object.values(APPLICANT), ANSWER]) {
      expect(await columnsContaining(ctx.store, value), value).not.toEqual([]);
    }

    await eraseGameUser(ctx.store, ctx.clock, APPLICANT.gameUserId);

    for (const value of [...Object.values(APPLICANT), ANSWER]) {
      expect(await columnsContaining(ctx.store, value), value).toEqual([]);
    }
    const status = await get(ctx.inject, fixture.keys.live.secret, `/v1/applications/applicants/${APPLICANT.gameUserId}/submissions`);
    expect(status.json().data.submissions).toEqual([]);

    // No staff profile can be made for an erased applicant: 409, nothing changed; accepting without one works.
    const id: string = first.json().data.submission.id;
    const withProfile = await call(ctx.inject, 'accept', id, { token, body: { createStaffProfile: true } });
    expect(withProfile.statusCode).toBe(409);
    expect(errorCode(withProfile)).toBe('invalid_state_transition');
    expect((await submissionRow(ctx, id)).status).toBe('submitted');
    const without = await call(ctx.inject, 'accept', id, { token, body: { createStaffProfile: false } });
    expect(without.statusCode).toBe(200);
    expect(without.json().data).toMatchObject({ staffProfileCreated: false, staffProfileId: null });
  });
});
