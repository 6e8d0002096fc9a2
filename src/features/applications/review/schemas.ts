import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { envelopeSchema } from '../../../http/envelope.ts';
import { UuidText } from '../../../http/validation.ts';
import { CorrelationIdHeader, idempotencyKeyHeader } from '../../../http/headers.ts';
import * as examples from './examples.ts';
import { UUID_PATTERN } from '../../../shared/ids.ts';

export const REVIEW_NOTE_MAX = 5000;
export const REVIEWER_NOTES_MAX = 5000;

/** A schema that also accepts null, as one JSON Schema `type` list so validation messages stay readable. */
function Nullable<T extends TSchema>(schema: T) {
  const type: unknown = schema.type;
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

/**
 * An optional JSON object body. Fastify validates an absent body as `null`, so `null` stands for "no body"
 * (an empty body with `Content-Type: application/json` counts as absent too).
 */
function OptionalBody<T extends TSchema>(schema: T, description: string) {
  return Type.Unsafe<Static<T> | null>({ ...Nullable(schema), description });
}

const DateTime = Type.String({ format: 'date-time' });
const Uuid = Type.String({ format: 'uuid' });

const ReviewNote = Type.String({
  maxLength: REVIEW_NOTE_MAX,
  description:
    'Free-text note for this decision, at most 5000 characters. It is recorded in the command and in the emitted ' +
    'event; it does not change the submission\'s `reviewerNotes` (use PATCH …/review for those).',
});

export const SubmissionParamsSchema = Type.Object({
  submissionId: UuidText({
    description:
      'Submission id (uuid, in any case). A value that is not a uuid names no submission and is answered 404 `not_found`, ' +
      'like any submission the caller cannot see.',
    examples: [examples.SUBMISSION_ID],
  }),
});

export const ReviewHeadersSchema = Type.Object({
  'idempotency-key': idempotencyKeyHeader('the dashboard user'),
  'x-correlation-id': CorrelationIdHeader,
  'x-service-workspace-id': Type.Optional(
    Type.String({
      pattern: UUID_PATTERN,
      description:
        'Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 ' +
        '`workspace_access_denied`); only submissions of that workspace are then visible. Without it, submissions ' +
        'of every workspace the caller is a member of are visible.',
      examples: [examples.WORKSPACE_ID],
    }),
  ),
});

export const AcceptBodySchema = OptionalBody(
  Type.Object(
    {
      reviewNote: Type.Optional(ReviewNote),
      createStaffProfile: Type.Optional(
        Type.Boolean({
          description:
            'Create (or link) a staff profile for the applicant. Applies only when the caller has `staff.create`; ' +
            'otherwise it is ignored and the workspace setting `createStaffProfileOnAccept` decides.',
        }),
      ),
    },
    { additionalProperties: false, examples: [examples.acceptBodyExample] },
  ),
  'Optional. Unknown properties are rejected (400).',
);
export type AcceptInput = NonNullable<Static<typeof AcceptBodySchema>>;

export const DecisionBodySchema = OptionalBody(
  Type.Object(
    { reviewNote: Type.Optional(ReviewNote) },
    { additionalProperties: false, examples: [examples.decisionBodyExample] },
  ),
  'Optional. Unknown properties are rejected (400).',
);
export type DecisionInput = NonNullable<Static<typeof DecisionBodySchema>>;

export const ReviewPatchBodySchema = Type.Object(
  {
    score: Type.Optional(
      Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'Reviewer score, 0 to 100; null clears it.' })),
    ),
    reviewerNotes: Type.Optional(
      Nullable(
        Type.String({
          maxLength: REVIEWER_NOTES_MAX,
          description: 'Internal notes, at most 5000 characters; null or an empty string clears them.',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'At least one of `score` and `reviewerNotes`. Omitted fields are left unchanged.',
    examples: [examples.reviewPatchBodyExample],
  },
);
export type ReviewPatchInput = Static<typeof ReviewPatchBodySchema>;

const Ids = {
  commandId: Type.String({ format: 'uuid', description: 'The recorded command.' }),
  eventId: Type.String({ format: 'uuid', description: 'The emitted event.' }),
};

export const AcceptResultSchema = Type.Object({
  submissionId: Uuid,
  status: Type.Literal('accepted'),
  acceptedAt: DateTime,
  staffProfileCreated: Type.Boolean({ description: 'True when this accept created a new staff profile.' }),
  staffProfileId: Type.Union([Uuid, Type.Null()], {
    description: 'The created or linked staff profile; null when no profile was requested.',
  }),
  ...Ids,
});
export type AcceptResult = Static<typeof AcceptResultSchema>;

export const UnderReviewResultSchema = Type.Object({
  submissionId: Uuid,
  status: Type.Literal('under_review'),
  reviewedAt: DateTime,
  ...Ids,
});
export type UnderReviewResult = Static<typeof UnderReviewResultSchema>;

export const RejectResultSchema = Type.Object({
  submissionId: Uuid,
  status: Type.Literal('rejected'),
  rejectedAt: DateTime,
  ...Ids,
});
export type RejectResult = Static<typeof RejectResultSchema>;

export const ReviewUpdateResultSchema = Type.Object({
  submissionId: Uuid,
  status: Type.Union([Type.Literal('submitted'), Type.Literal('under_review')], { description: 'Unchanged.' }),
  score: Type.Union([Type.Number(), Type.Null()], { description: 'The score after this update.' }),
  scoreUpdated: Type.Boolean({ description: 'True when the patch carried `score`.' }),
  reviewerNotesUpdated: Type.Boolean({ description: 'True when the patch carried `reviewerNotes`.' }),
  reviewedAt: Type.Union([DateTime, Type.Null()], { description: 'Always the time of this update.' }),
  ...Ids,
});
export type ReviewUpdateResult = Static<typeof ReviewUpdateResultSchema>;

function success<T extends TSchema>(data: T, description: string, example: unknown) {
  return { ...envelopeSchema(data), description, examples: [example] };
}

export const AcceptResponseSchema = success(
  AcceptResultSchema,
  'The submission was accepted.',
  examples.acceptResponseExample,
);
export const UnderReviewResponseSchema = success(
  UnderReviewResultSchema,
  'The submission is under review.',
  examples.underReviewResponseExample,
);
export const RejectResponseSchema = success(
  RejectResultSchema,
  'The submission was rejected.',
  examples.rejectResponseExample,
);
export const ReviewUpdateResponseSchema = success(
  ReviewUpdateResultSchema,
  'The review fields were updated.',
  examples.reviewUpdateResponseExample,
);
