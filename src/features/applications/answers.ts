/**
 * A submission's answers (docs/API.md, "Applications"): as checked against a form's questions, as stored and as
 * read back.
 *
 * Checked: every problem is reported at once. Text is trimmed and an empty text is no answer; lengths count
 * characters (code points) after trimming; a required `boolean` answered `false` is answered.
 *
 * Stored (the `answers` column, JSON):
 * - a submission to a form: an array of `{ questionId, label, type, value }` in the form's question order as it
 *   was when the answers were given, so a later change of the form's questions never rewrites them;
 * - a provisioned submission without a form: an object of answers by key, shown as short-text answers labelled
 *   with their key.
 *
 * Answers are personal data: never logged, and the problems found name questions and limits, never the value given.
 */
import type { Question } from './forms/questions.ts';

export const QUESTION_TYPES = ['short_text', 'long_text', 'number', 'boolean', 'choice', 'multi_choice'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export type AnswerValue = string | number | boolean | readonly string[] | null;

export interface StoredAnswer {
  readonly questionId: string;
  readonly label: string;
  readonly type: QuestionType;
  readonly value: AnswerValue;
}

export const ANSWER_ISSUE_CODES = [
  'required',
  'unknown_question',
  'wrong_type',
  'too_long',
  'below_min',
  'above_max',
  'not_an_option',
  'duplicate_option',
] as const;
export type AnswerIssueCode = (typeof ANSWER_ISSUE_CODES)[number];

export interface AnswerIssue {
  readonly questionId: string;
  readonly code: AnswerIssueCode;
  readonly message: string;
}

export type AnswerCheck =
  | { readonly ok: true; readonly answers: StoredAnswer[] }
  | { readonly ok: false; readonly issues: AnswerIssue[] };

const characters = (text: string): number => [...text].length;

/** The answer's value as stored, `undefined` when no answer was given, or the issues it has. */
type Checked = { readonly value: AnswerValue | undefined } | { readonly issues: AnswerIssue[] };

function issue(question: Question, code: AnswerIssueCode, message: string): { issues: AnswerIssue[] } {
  return { issues: [{ questionId: question.id, code, message }] };
}

function checkText(question: Question, raw: unknown): Checked {
  if (typeof raw !== 'string') return issue(question, 'wrong_type', 'must be a string');
  const text = raw.trim();
  if (text === '') return { value: undefined };
  const limit = question.maxLength;
  if (limit !== null && characters(text) > limit) {
    return issue(question, 'too_long', `must be at most ${limit} characters`);
  }
  return { value: text };
}

function checkNumber(question: Question, raw: unknown): Checked {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return issue(question, 'wrong_type', 'must be a number');
  if (question.min !== null && raw < question.min) return issue(question, 'below_min', `must be at least ${question.min}`);
  if (question.max !== null && raw > question.max) return issue(question, 'above_max', `must be at most ${question.max}`);
  return { value: raw };
}

function checkChoice(question: Question, raw: unknown): Checked {
  if (typeof raw !== 'string') return issue(question, 'wrong_type', 'must be one of the options, as a string');
  const choice = raw.trim();
  if (choice === '') return { value: undefined };
  if (!(question.options ?? []).includes(choice)) return issue(question, 'not_an_option', 'must be one of the options offered');
  return { value: choice };
}

function checkMultiChoice(question: Question, raw: unknown): Checked {
  if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string')) {
    return issue(question, 'wrong_type', 'must be a list of options, as strings');
  }
  const choices = (raw as string[]).map((item) => item.trim());
  if (choices.length === 0) return { value: undefined };
  const offered = question.options ?? [];
  const issues: AnswerIssue[] = [];
  if (choices.some((choice) => !offered.includes(choice))) {
    issues.push(issue(question, 'not_an_option', 'must list only options offered').issues[0]!);
  }
  if (new Set(choices).size !== choices.length) {
    issues.push(issue(question, 'duplicate_option', 'must not list an option twice').issues[0]!);
  }
  return issues.length > 0 ? { issues } : { value: choices };
}

function checkAnswer(question: Question, raw: unknown): Checked {
  if (raw === undefined || raw === null) return { value: undefined };
  switch (question.type) {
    case 'short_text':
    case 'long_text':
      return checkText(question, raw);
    case 'number':
      return checkNumber(question, raw);
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : issue(question, 'wrong_type', 'must be true or false');
    case 'choice':
      return checkChoice(question, raw);
    case 'multi_choice':
      return checkMultiChoice(question, raw);
  }
}

/**
 * Checks `given` (answers by question id) against `questions`. On success, the answers as stored: one entry per
 * question answered, in the form's order, with the label and type it was asked under. Pure.
 */
export function checkAnswers(questions: readonly Question[], given: Readonly<Record<string, unknown>>): AnswerCheck {
  const issues: AnswerIssue[] = [];
  const answers: StoredAnswer[] = [];
  for (const question of questions) {
    // Own answers only: a question id such as `constructor` must not find what every object inherits.
    const checked = checkAnswer(question, Object.hasOwn(given, question.id) ? given[question.id] : undefined);
    if ('issues' in checked) {
      issues.push(...checked.issues);
      continue;
    }
    if (checked.value === undefined) {
      if (question.required) issues.push({ questionId: question.id, code: 'required', message: 'is required' });
      continue;
    }
    answers.push({ questionId: question.id, label: question.label, type: question.type, value: checked.value });
  }
  const known = new Set(questions.map((question) => question.id));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) issues.push({ questionId: key, code: 'unknown_question', message: 'is not a question of this form' });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, answers };
}

function isQuestionType(value: unknown): value is QuestionType {
  return typeof value === 'string' && (QUESTION_TYPES as readonly string[]).includes(value);
}

/** A value as stored: JSON scalars and lists of strings as they are, anything else as its JSON text. */
export function answerValue(value: unknown): AnswerValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return JSON.stringify(value);
}

/** The stored answers, in either stored form, as a list. */
export function readAnswers(json: string): StoredAnswer[] {
  const parsed: unknown = JSON.parse(json);
  if (Array.isArray(parsed)) {
    return parsed.map((entry: unknown) => {
      const item = (entry ?? {}) as Record<string, unknown>;
      const questionId = String(item.questionId);
      return {
        questionId,
        label: typeof item.label === 'string' ? item.label : questionId,
        type: isQuestionType(item.type) ? item.type : 'short_text',
        value: answerValue(item.value),
      };
    });
  }
  if (parsed === null || typeof parsed !== 'object') return [];
  return Object.entries(parsed as Record<string, unknown>).map(([key, value]) => ({
    questionId: key,
    label: key,
    type: 'short_text',
    value: answerValue(value),
  }));
}

/** The answers of a submission to a form, as stored. */
export function storeAnswers(answers: readonly StoredAnswer[]): string {
  return JSON.stringify(answers);
}
