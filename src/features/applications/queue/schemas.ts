import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { envelopeSchema } from '../../../http/envelope.ts';
import { CorrelationIdHeader } from '../../../http/headers.ts';
import { UuidText } from '../../../http/validation.ts';
import { UUID_PATTERN } from '../../../shared/ids.ts';
import { QUESTION_TYPES } from '../answers.ts';
import { SUBMISSION_STATUSES } from '../rules.ts';
import { SubmissionItemSchema } from '../views.ts';
import * as examples from './examples.ts';

export const QUEUE_LIMIT_DEFAULT = 25;
export const QUEUE_LIMIT_MAX = 100;

const STATUS = `(${SUBMISSION_STATUSES.join('|')})`;
const DateTime = Type.String({ format: 'date-time' });

export const QueueReadHeadersSchema = Type.Object({
  'x-correlation-id': CorrelationIdHeader,
  'x-service-workspace-id': Type.Optional(
    Type.String({
      pattern: UUID_PATTERN,
      description:
        'Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 ' +
        '`workspace_access_denied`) and hold `applications.review` or `applications.decide` there (else 403 ' +
        '`permission_denied`); only that workspace is then read. Without it, every workspace where the caller ' +
        'holds one of those permissions is read.',
      examples: [examples.WORKSPACE_ID],
    }),
  ),
});

const Environment = Type.Union([Type.Literal('live'), Type.Literal('test')], {
  default: 'live',
  description: '`live` (default) or `test`: the environment of the key that sent the submissions.',
  examples: ['live'],
});

export const QueueQuerySchema = Type.Object({
  status: Type.Optional(
    Type.String({
      pattern: `^${STATUS}(,${STATUS})*$`,
      description:
        'One status or a comma-separated list of `submitted`, `under_review`, `accepted`, `rejected`; default ' +
        '`submitted,under_review`.',
      examples: ['submitted,under_review'],
    }),
  ),
  formId: Type.Optional(
    UuidText({
      format: 'uuid',
      description: 'Only submissions to this form (a uuid; one that names no form of the workspace gives an empty page).',
      examples: [examples.FORM_ID],
    }),
  ),
  environment: Type.Optional(Environment),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: QUEUE_LIMIT_MAX,
      default: QUEUE_LIMIT_DEFAULT,
      description: 'Page size, 1..100 (default 25); outside it, or not an integer, 400.',
      examples: [QUEUE_LIMIT_DEFAULT],
    }),
  ),
  cursorCreatedAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Keyset cursor from `nextCursor`: `createdAt` of the last submission seen. Sent with `cursorId`.',
      examples: ['2026-03-10T09:30:00.000Z'],
    }),
  ),
  cursorId: Type.Optional(
    UuidText({
      format: 'uuid',
      description: 'Keyset cursor from `nextCursor`: `id` of the last submission seen. Sent with `cursorCreatedAt`.',
      examples: [examples.SUBMISSION_ID],
    }),
  ),
});
export type QueueQuery = Static<typeof QueueQuerySchema>;

export const StatsQuerySchema = Type.Object({ environment: Type.Optional(Environment) });
export type StatsQuery = Static<typeof StatsQuerySchema>;


const CursorSchema = Type.Object({
  cursorCreatedAt: Type.String({ format: 'date-time', description: 'Pass as `cursorCreatedAt`.' }),
  cursorId: Type.String({ format: 'uuid', description: 'Pass as `cursorId`.' }),
});

export const QueuePageSchema = Type.Object({
  submissions: Type.Array(SubmissionItemSchema),
  nextCursor: Type.Union([CursorSchema, Type.Null()], { description: 'Cursor of the next page; null on the last.' }),
});
export type QueuePage = Static<typeof QueuePageSchema>;

const AnswerSchema = Type.Object(
  {
    questionId: Type.String(),
    label: Type.String({ description: 'The question\'s label when the answer was given.' }),
    type: Type.Union(QUESTION_TYPES.map((t) => Type.Literal(t))),
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String()), Type.Null()]),
  },
  { additionalProperties: false },
);

export const HISTORY_TYPES = ['submitted', 'marked_under_review', 'review_updated', 'accepted', 'rejected'] as const;
export type HistoryType = (typeof HISTORY_TYPES)[number];

const HistoryEntrySchema = Type.Object(
  {
    commandId: Type.String({ format: 'uuid' }),
    eventId: Type.String({ format: 'uuid' }),
    type: Type.Union(HISTORY_TYPES.map((t) => Type.Literal(t))),
    actor: Type.Object(
      {
        type: Type.Union([Type.Literal('dashboard_user'), Type.Literal('api_key')]),
        id: Type.String({ description: 'The dashboard user\'s id, or the API key\'s application id.' }),
        name: Type.Union([Type.String(), Type.Null()], {
          description: 'The API key\'s application\'s name; null for a dashboard user, whom the gateway knows by id only.',
        }),
      },
      { additionalProperties: false },
    ),
    at: DateTime,
    reviewNote: Type.Union([Type.String(), Type.Null()], { description: 'Null when none was sent.' }),
  },
  { additionalProperties: false },
);
export type HistoryEntry = Static<typeof HistoryEntrySchema>;

export const SubmissionDetailSchema = Type.Composite(
  [
    SubmissionItemSchema,
    Type.Object({
      reviewerNotes: Type.Union([Type.String(), Type.Null()]),
      staffProfileId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'The staff profile an accept created or linked; else null.',
      }),
      answers: Type.Array(AnswerSchema, {
        description:
          'In the form\'s question order as it was when submitted; for a submission without a form, its ' +
          'provisioned answers as short-text answers labelled with their key.',
      }),
      history: Type.Array(HistoryEntrySchema, { description: 'One entry per recorded command, oldest first.' }),
    }),
  ],
  { additionalProperties: false },
);
export type SubmissionDetail = Static<typeof SubmissionDetailSchema>;

const Count = Type.Integer({ minimum: 0 });
const FormStatsSchema = Type.Object(
  {
    formId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'Null: submissions without a form.' }),
    formName: Type.Union([Type.String(), Type.Null()]),
    submitted: Count,
    underReview: Count,
    accepted: Count,
    rejected: Count,
  },
  { additionalProperties: false },
);
export type FormStats = Static<typeof FormStatsSchema>;

export const StatsSchema = Type.Object({ forms: Type.Array(FormStatsSchema) });
export type Stats = Static<typeof StatsSchema>;

function success<T extends TSchema>(data: T, description: string, example: unknown) {
  return { ...envelopeSchema(data), description, examples: [example] };
}

export const QueueResponseSchema = success(QueuePageSchema, 'One page of the queue.', examples.queueResponseExample);
export const DetailResponseSchema = success(
  Type.Object({ submission: SubmissionDetailSchema }),
  'The submission with its answers and history.',
  examples.detailResponseExample,
);
export const StatsResponseSchema = success(StatsSchema, 'Submissions by form and status.', examples.statsResponseExample);
