import { describe, expect, it } from 'vitest';
import { normalizeQuestion, questionProblems, type QuestionInput } from '../../../src/features/applications/forms/questions.ts';
import { checkAnswers } from '../../../src/features/applications/answers.ts';

const questions = (...inputs: QuestionInput[]) => inputs.map(normalizeQuestion);

describe('answers checked against a form', () => {
  it('a question id an object inherits (constructor, __proto__) is unanswered unless answered', () => {
    const form = questions(
      { id: 'constructor', label: 'C', type: 'short_text', required: true },
      { id: '__proto__', label: 'P', type: 'short_text' },
    );
    const result = checkAnswers(form, JSON.parse('{}') as Record<string, unknown>);
    expect(result).toEqual({ ok: false, issues: [{ questionId: 'constructor', code: 'required', message: 'is required' }] });
    const answered = checkAnswers(form, JSON.parse('{"constructor":" yes ","__proto__":"p"}') as Record<string, unknown>);
    expect(answered).toEqual({
      ok: true,
      answers: [
        { questionId: 'constructor', label: 'C', type: 'short_text', value: 'yes' },
        { questionId: '__proto__', label: 'P', type: 'short_text', value: 'p' },
      ],
    });
  });

  it('a number must be finite and within min and max, which are inclusive', () => {
    const form = questions({ id: 'n', label: 'N', type: 'number', min: 1, max: 3 });
    expect(checkAnswers(form, { n: 1 }).ok).toBe(true);
    expect(checkAnswers(form, { n: 3 }).ok).toBe(true);
    expect(checkAnswers(form, { n: 0.5 })).toMatchObject({ ok: false, issues: [{ code: 'below_min' }] });
    expect(checkAnswers(form, { n: 3.5 })).toMatchObject({ ok: false, issues: [{ code: 'above_max' }] });
  });

  it('defaults are filled in, and fields that do not apply are null', () => {
    expect(normalizeQuestion({ id: 'a', label: 'A', type: 'short_text' })).toEqual({
      id: 'a',
      label: 'A',
      type: 'short_text',
      required: false,
      maxLength: 200,
      min: null,
      max: null,
      options: null,
    });
    expect(normalizeQuestion({ id: 'b', label: 'B', type: 'long_text', maxLength: 10 }).maxLength).toBe(10);
    expect(normalizeQuestion({ id: 'c', label: 'C', type: 'choice', options: ['x'] }).options).toEqual(['x']);
  });

  it('question rules beyond the shape', () => {
    expect(questionProblems({ id: 'a', label: 'A', type: 'long_text', maxLength: 5000 })).toEqual([]);
    expect(questionProblems({ id: 'a', label: 'A', type: 'long_text', maxLength: 5001 })).toEqual([
      { field: 'maxLength', message: 'must be at most 5000 for long_text' },
    ]);
    expect(questionProblems({ id: 'a', label: 'A', type: 'boolean', min: 1 })).toEqual([{ field: 'min', message: 'applies only to number' }]);
  });
});
