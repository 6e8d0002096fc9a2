/**
 * How a submission's answers are stored (the `answers` column, JSON):
 * - a submission to a form: an array of `{ questionId, label, type, value }` in the form's question order as it
 *   was when the answers were given, so a later change of the form's questions never rewrites them;
 * - a provisioned submission without a form: an object of answers by key, shown as short-text answers labelled
 *   with their key.
 * Answers are personal data: never logged.
 */

export const QUESTION_TYPES = ['short_text', 'long_text', 'number', 'boolean', 'choice', 'multi_choice'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export type AnswerValue = string | number | boolean | readonly string[] | null;

export interface StoredAnswer {
  readonly questionId: string;
  readonly label: string;
  readonly type: QuestionType;
  readonly value: AnswerValue;
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
