import { Type, type Static } from '@sinclair/typebox';
import { QUESTION_TYPES, type QuestionType } from '../answers.ts';

/**
 * An application form's questions (docs/API.md, "Applications"): the shape the provisioning document gives them in,
 * and the shape they are stored and answered in, every default filled in and every field present (null where it
 * does not apply to the question's type).
 */

export const QUESTION_ID_PATTERN = '^[a-z0-9_-]{1,64}$';
export const MAX_QUESTIONS = 50;
export const MAX_OPTIONS = 50;

/** The longest text each text type allows, and its default. */
export const TEXT_LIMITS: Readonly<Partial<Record<QuestionType, number>>> = { short_text: 200, long_text: 5000 };

export const CHOICE_TYPES: readonly QuestionType[] = ['choice', 'multi_choice'];

const QuestionTypeSchema = Type.Unsafe<QuestionType>({ type: 'string', enum: [...QUESTION_TYPES] });
const OptionText = Type.String({ minLength: 1, maxLength: 100 });

/** A question as the provisioning document writes it; the rules between its fields are checked after this. */
export const QuestionInputSchema = Type.Object(
  {
    id: Type.String({ pattern: QUESTION_ID_PATTERN }),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    type: QuestionTypeSchema,
    required: Type.Optional(Type.Boolean()),
    maxLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    options: Type.Optional(Type.Array(OptionText, { minItems: 1, maxItems: MAX_OPTIONS })),
  },
  { additionalProperties: false },
);
export type QuestionInput = Static<typeof QuestionInputSchema>;

/** A question as it is stored and served. */
export const QuestionSchema = Type.Object(
  {
    id: Type.String({ pattern: QUESTION_ID_PATTERN, description: 'Unique in the form; the key of its answer.' }),
    label: Type.String(),
    type: QuestionTypeSchema,
    required: Type.Boolean({ description: 'Default false. A required `boolean` answered `false` is answered.' }),
    maxLength: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'Text types: the longest answer in characters after trimming (default 200 for `short_text`, 5000 for `long_text`); else null.',
    }),
    min: Type.Union([Type.Number(), Type.Null()], { description: '`number`: the smallest answer allowed; null when none.' }),
    max: Type.Union([Type.Number(), Type.Null()], { description: '`number`: the largest answer allowed; null when none.' }),
    options: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: '`choice` and `multi_choice`: the options offered; else null.',
    }),
  },
  { additionalProperties: false },
);
export type Question = Static<typeof QuestionSchema>;

/** The question with every default filled in. */
export function normalizeQuestion(input: QuestionInput): Question {
  const textLimit = TEXT_LIMITS[input.type];
  const isNumber = input.type === 'number';
  return {
    id: input.id,
    label: input.label,
    type: input.type,
    required: input.required ?? false,
    maxLength: textLimit === undefined ? null : (input.maxLength ?? textLimit),
    min: isNumber ? (input.min ?? null) : null,
    max: isNumber ? (input.max ?? null) : null,
    options: CHOICE_TYPES.includes(input.type) ? [...(input.options ?? [])] : null,
  };
}

/** What is wrong with one question beyond its shape, as (field, message) pairs. Pure. */
export function questionProblems(input: QuestionInput): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  const textLimit = TEXT_LIMITS[input.type];
  if (input.maxLength !== undefined) {
    if (textLimit === undefined) problems.push({ field: 'maxLength', message: 'applies only to short_text and long_text' });
    else if (input.maxLength > textLimit) problems.push({ field: 'maxLength', message: `must be at most ${textLimit} for ${input.type}` });
  }
  if (input.type !== 'number') {
    if (input.min !== undefined) problems.push({ field: 'min', message: 'applies only to number' });
    if (input.max !== undefined) problems.push({ field: 'max', message: 'applies only to number' });
  } else if (input.min !== undefined && input.max !== undefined && input.min > input.max) {
    problems.push({ field: 'max', message: 'must not be less than min' });
  }
  const isChoice = CHOICE_TYPES.includes(input.type);
  if (!isChoice && input.options !== undefined) {
    problems.push({ field: 'options', message: 'applies only to choice and multi_choice' });
  }
  if (isChoice && input.options === undefined) problems.push({ field: 'options', message: `is required for ${input.type}` });
  if (input.options !== undefined && new Set(input.options).size !== input.options.length) {
    problems.push({ field: 'options', message: 'must be distinct' });
  }
  return problems;
}
