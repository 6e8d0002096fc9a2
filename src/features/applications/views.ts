import { Type, type Static } from '@sinclair/typebox';
import { toIso } from '../../shared/clock.ts';
import type { SubmissionTable } from '../../db/types.ts';
import { SUBMISSION_STATUSES, type SubmissionStatus } from './rules.ts';

/**
 * A submission as the reviewers' queue lists it, and as an intake answers it (docs/API.md, "Applications"):
 * optional fields that were never given are null, never absent.
 */

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);
const NullableText = Type.Union([Type.String(), Type.Null()]);

export const ApplicantViewSchema = Type.Object(
  {
    // No pattern: a provisioned applicant's id is any text of up to 64 characters, and a response schema that
    // one stored row fails turns the whole page into a 500.
    gameUserId: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
      description:
        'The applicant\'s game user id: a string of digits when it came through the intake, as provisioned ' +
        'otherwise; null once their data was erased.',
    }),
    gameUsername: NullableText,
    displayName: NullableText,
    chatUserId: NullableText,
  },
  { additionalProperties: false },
);
export type ApplicantView = Static<typeof ApplicantViewSchema>;

export const SubmissionItemSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    formId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'Null for a submission without a form.' }),
    formName: Type.Union([Type.String(), Type.Null()], { description: 'Null for a submission without a form.' }),
    status: Type.Union(SUBMISSION_STATUSES.map((s) => Type.Literal(s))),
    environment: Type.Union([Type.Literal('live'), Type.Literal('test')], {
      description: 'The environment of the key that sent it; provisioned submissions are `live`.',
    }),
    applicant: ApplicantViewSchema,
    score: Type.Union([Type.Number(), Type.Null()]),
    createdAt: DateTime,
    reviewedAt: NullableDateTime,
    decidedAt: Type.Union([DateTime, Type.Null()], { description: 'When it was accepted or rejected; else null.' }),
  },
  { additionalProperties: false },
);
export type SubmissionItem = Static<typeof SubmissionItemSchema>;

/** The columns a list item is read from, with the form's name joined in. */
export type SubmissionItemRow = Pick<
  SubmissionTable,
  'id' | 'form_id' | 'status' | 'environment' | 'applicant' | 'score' | 'created_at' | 'reviewed_at' | 'accepted_at' | 'rejected_at'
> & { readonly form_name: string | null };

/** The stored applicant (JSON), each field a non-empty string or null. */
export function applicantView(json: string): ApplicantView {
  const value = JSON.parse(json) as Record<string, unknown>;
  const field = (key: string): string | null => {
    const v = value[key];
    if (typeof v === 'number') return String(v);
    return typeof v === 'string' && v !== '' ? v : null;
  };
  return {
    gameUserId: field('gameUserId'),
    gameUsername: field('gameUsername'),
    displayName: field('displayName'),
    chatUserId: field('chatUserId'),
  };
}

export function toSubmissionItem(row: SubmissionItemRow): SubmissionItem {
  const decidedAt = row.accepted_at ?? row.rejected_at;
  return {
    id: row.id,
    formId: row.form_id,
    formName: row.form_id === null ? null : row.form_name,
    status: row.status as SubmissionStatus,
    environment: row.environment,
    applicant: applicantView(row.applicant),
    score: row.score === null ? null : Number(row.score),
    createdAt: toIso(Number(row.created_at)),
    reviewedAt: row.reviewed_at === null ? null : toIso(Number(row.reviewed_at)),
    decidedAt: decidedAt === null ? null : toIso(Number(decidedAt)),
  };
}
