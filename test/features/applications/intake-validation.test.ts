import { beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { errorCode } from './helpers.ts';
import { freshGameUserId, GOOD_ANSWERS, intakeBody, submit, useIntakeWorld, type IntakeFixture } from './intake-helpers.ts';

type Issue = { questionId: string; code: string; message: string };

/** Answers with `changes` applied over GOOD_ANSWERS (`undefined` removes an answer). */
function answers(changes: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...GOOD_ANSWERS, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete merged[key];
  return merged;
}

const ANSWER_CASES: Array<[string, Record<string, unknown>, Array<[string, string]>]> = [
  ['a missing required text', { why: undefined }, [['why', 'required']]],
  ['a required text of only spaces', { why: '   ' }, [['why', 'required']]],
  ['a required text that is null', { why: null }, [['why', 'required']]],
  ['a missing required number', { age: undefined }, [['age', 'required']]],
  ['a missing required boolean', { rules: undefined }, [['rules', 'required']]],
  ['an unknown question id', { extra: 'hi' }, [['extra', 'unknown_question']]],
  ['a number for a text', { why: 42 }, [['why', 'wrong_type']]],
  ['a string for a number', { age: '19' }, [['age', 'wrong_type']]],
  ['a string for a boolean', { rules: 'true' }, [['rules', 'wrong_type']]],
  ['a list for a choice', { tz: ['EU'] }, [['tz', 'wrong_type']]],
  ['a string for a multi choice', { langs: 'en' }, [['langs', 'wrong_type']]],
  ['a list with a number for a multi choice', { langs: ['en', 1] }, [['langs', 'wrong_type']]],
  ['an object for a short text', { nick: { a: 1 } }, [['nick', 'wrong_type']]],
  ['text over maxLength', { why: 'a'.repeat(2001) }, [['why', 'too_long']]],
  ['a short text over its default 200', { nick: 'n'.repeat(201) }, [['nick', 'too_long']]],
  ['a number below min', { age: 12 }, [['age', 'below_min']]],
  ['a number above max', { age: 100 }, [['age', 'above_max']]],
  ['an option not offered', { tz: 'Mars' }, [['tz', 'not_an_option']]],
  ['an option in another case', { tz: 'eu' }, [['tz', 'not_an_option']]],
  ['a multi choice with an option not offered', { langs: ['en', 'xx'] }, [['langs', 'not_an_option']]],
  ['a multi choice listing an option twice', { langs: ['en', 'en'] }, [['langs', 'duplicate_option']]],
];

describe.each(STORE_KINDS)('application intake: answers checked against the form (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: IntakeFixture;

  const world = useIntakeWorld(kind);
  beforeAll(() => {
    ({ ctx, fixture } = world);
  });

  const send = (body: unknown) => submit(ctx.inject, fixture.keys.live.secret, fixture.form.id, body);

  async function refusedWith(body: unknown): Promise<Issue[]> {
    const res = await send(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorCode(res)).toBe('validation_failed');
    return res.json().error.details.issues as Issue[];
  }

  it.each(ANSWER_CASES)('%s is 400 with the question and its code', async (_label, changes, expected) => {
    const gameUserId = freshGameUserId();
    const issues = await refusedWith(intakeBody(gameUserId, answers(changes)));
    expect(issues.map((i) => [i.questionId, i.code])).toEqual(expected);
    for (const issue of issues) expect(issue.message).toEqual(expect.any(String));
    const rows = await ctx.store.db.selectFrom('submissions').select('id').where('game_user_id', '=', gameUserId).execute();
    expect(rows).toEqual([]);
  });

  it('reports every problem at once, in the form\'s order, then unknown ids', async () => {
    const issues = await refusedWith(
      intakeBody(freshGameUserId(), { zzz: 1, age: 5, tz: 'Mars', langs: ['de', 'de', 'xx'], nick: 7, other: true }),
    );
    expect(issues.map((i) => [i.questionId, i.code])).toEqual([
      ['why', 'required'],
      ['age', 'below_min'],
      ['tz', 'not_an_option'],
      ['rules', 'required'],
      ['langs', 'not_an_option'],
      ['langs', 'duplicate_option'],
      ['nick', 'wrong_type'],
      ['zzz', 'unknown_question'],
      ['other', 'unknown_question'],
    ]);
  });

  it('a message never repeats the answer given', async () => {
    const issues = await refusedWith(intakeBody(freshGameUserId(), answers({ tz: 'secret-choice', why: 'w'.repeat(2500) })));
    for (const issue of issues) expect(issue.message).not.toMatch(/secret-choice|wwww/);
  });

  it('accepts a required boolean answered false, trims text, counts characters rather than UTF-16 units', async () => {
    const emoji = '😀'.repeat(2000); // 4000 UTF-16 units, 2000 characters: exactly maxLength
    const res = await send(intakeBody(freshGameUserId(), answers({ rules: false, why: `  ${emoji}  `, nick: ' x ' })));
    expect(res.statusCode, res.body).toBe(200);
    const row = await ctx.store.db
      .selectFrom('submissions')
      .select('answers')
      .where('id', '=', res.json().data.submission.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(row.answers) as Array<{ questionId: string; value: unknown }>;
    expect(stored.find((a) => a.questionId === 'rules')?.value).toBe(false);
    expect(stored.find((a) => a.questionId === 'why')?.value).toBe(emoji);
    expect(stored.find((a) => a.questionId === 'nick')?.value).toBe('x');
    expect((await refusedWith(intakeBody(freshGameUserId(), answers({ why: `${emoji}😀` }))))[0]).toMatchObject({
      questionId: 'why',
      code: 'too_long',
    });
  });

  it('optional questions may be left out, empty or null; they are not stored', async () => {
    const res = await send(intakeBody(freshGameUserId(), answers({ tz: '', langs: [], nick: null })));
    expect(res.statusCode, res.body).toBe(200);
    const row = await ctx.store.db
      .selectFrom('submissions')
      .select('answers')
      .where('id', '=', res.json().data.submission.id)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(row.answers) as Array<{ questionId: string }>).map((a) => a.questionId)).toEqual(['why', 'age', 'rules']);
  });

  const BAD_BODIES: Array<[string, unknown]> = [
    ['no applicant', { answers: GOOD_ANSWERS }],
    ['no answers', { applicant: { gameUserId: '1' } }],
    ['answers that are a list', { applicant: { gameUserId: '1' }, answers: [] }],
    ['a gameUserId with letters', { applicant: { gameUserId: '12a' }, answers: GOOD_ANSWERS }],
    ['an empty gameUserId', { applicant: { gameUserId: '' }, answers: GOOD_ANSWERS }],
    ['a gameUserId of 33 digits', { applicant: { gameUserId: '1'.repeat(33) }, answers: GOOD_ANSWERS }],
    ['a negative gameUserId', { applicant: { gameUserId: -1 }, answers: GOOD_ANSWERS }],
    ['a fractional gameUserId', { applicant: { gameUserId: 1.5 }, answers: GOOD_ANSWERS }],
    ['a gameUserId over 2^53', { applicant: { gameUserId: 2 ** 53 + 2 }, answers: GOOD_ANSWERS }],
    ['a boolean gameUserId', { applicant: { gameUserId: true }, answers: GOOD_ANSWERS }],
    ['a gameUsername over 50', { applicant: { gameUserId: '1', gameUsername: 'u'.repeat(51) }, answers: GOOD_ANSWERS }],
    ['an empty displayName', { applicant: { gameUserId: '1', displayName: '' }, answers: GOOD_ANSWERS }],
    ['a displayName over 100', { applicant: { gameUserId: '1', displayName: 'd'.repeat(101) }, answers: GOOD_ANSWERS }],
    ['a chatUserId with letters', { applicant: { gameUserId: '1', chatUserId: 'abc' }, answers: GOOD_ANSWERS }],
    ['an unknown applicant property', { applicant: { gameUserId: '1', email: 'a@b.c' }, answers: GOOD_ANSWERS }],
    ['an unknown body property', { applicant: { gameUserId: '1' }, answers: GOOD_ANSWERS, extra: 1 }],
    ['a NUL character in an answer', { applicant: { gameUserId: '1' }, answers: { ...GOOD_ANSWERS, why: 'a\u0000b' } }],
    ['an unpaired surrogate in an answer', { applicant: { gameUserId: '1' }, answers: { ...GOOD_ANSWERS, nick: 'a\ud800' } }],
    ['a body that is null', null],
    ['a body that is a list', []],
  ];

  it.each(BAD_BODIES)('%s is 400 validation_failed', async (_label, body) => {
    const res = await send(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorCode(res)).toBe('validation_failed');
  });

  it('malformed JSON is 400 invalid_json', async () => {
    const res = await submit(ctx.inject, fixture.keys.live.secret, fixture.form.id, undefined, { raw: '{"applicant":' });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('invalid_json');
  });

  it('an unknown form is 404 before its answers are judged', async () => {
    const res = await submit(ctx.inject, fixture.keys.live.secret, fixture.otherForm.id, intakeBody(freshGameUserId(), {}));
    expect(res.statusCode).toBe(404);
  });
});
