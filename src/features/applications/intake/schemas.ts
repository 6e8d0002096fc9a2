import { Type, type Static } from '@sinclair/typebox';
import { envelopeSchema } from '../../../http/envelope.ts';
import { CorrelationHeadersSchema, CorrelationIdHeader, idempotencyKeyHeader } from '../../../http/headers.ts';
import { SUBMISSION_STATUSES } from '../rules.ts';
import { SubmissionItemSchema } from '../views.ts';
import * as examples from './examples.ts';

export const GAME_USER_ID_PATTERN = '^[0-9]{1,32}$';
const Digits = (description: string, example: string) =>
  Type.String({ pattern: GAME_USER_ID_PATTERN, description, examples: [example] });

export const IntakeHeadersSchema = Type.Object({
  'idempotency-key': idempotencyKeyHeader('the API key\'s application and environment'),
  'x-correlation-id': CorrelationIdHeader,
});

export const IntakeApplicantSchema = Type.Object(
  {
    gameUserId: Type.Union(
      [
        Digits('1 to 32 digits.', examples.GAME_USER_ID),
        Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Stored as its decimal string.' }),
      ],
      { description: 'The applicant\'s game user id: a string of 1 to 32 digits, or a number (turned into one).' },
    ),
    gameUsername: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    chatUserId: Type.Optional(Digits('The applicant\'s chat user id, 1 to 32 digits.', '7771')),
  },
  { additionalProperties: false, description: 'Who applies. Fields left out are null in answers.' },
);

export const IntakeBodySchema = Type.Object(
  {
    applicant: IntakeApplicantSchema,
    answers: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Answers by question id: a string for `short_text`, `long_text` and `choice`, a number for `number`, ' +
        'true or false for `boolean`, a list of distinct strings for `multi_choice`. Text is trimmed; an empty ' +
        'string (or list, or null) is no answer.',
    }),
  },
  { additionalProperties: false, examples: [examples.intakeBodyExample] },
);
export type IntakeBody = Static<typeof IntakeBodySchema>;

/** What intake answers in `data` (and the `application.submission.submitted` event carries). */
export const IntakeResultSchema = Type.Object(
  {
    submission: SubmissionItemSchema,
    commandId: Type.String({ format: 'uuid', description: 'The recorded command.' }),
    eventId: Type.String({ format: 'uuid', description: 'The event `application.submission.submitted`.' }),
  },
  { additionalProperties: false },
);

export const IntakeResponseSchema = {
  ...envelopeSchema(IntakeResultSchema),
  description: 'The submission, `submitted`, in the key\'s environment.',
  examples: [examples.intakeResponseExample],
};

export const ApplicantParamsSchema = Type.Object({
  gameUserId: Digits('The applicant\'s game user id, 1 to 32 digits (else 400).', examples.GAME_USER_ID),
});

export const ApplicantHeadersSchema = CorrelationHeadersSchema;

export const ApplicantSubmissionSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    formId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    formName: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union(SUBMISSION_STATUSES.map((status) => Type.Literal(status))),
    createdAt: Type.String({ format: 'date-time' }),
    decidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When it was accepted or rejected; else null.',
    }),
  },
  { additionalProperties: false },
);
export type ApplicantSubmission = Static<typeof ApplicantSubmissionSchema>;

export const ApplicantSubmissionsResponseSchema = {
  ...envelopeSchema(
    Type.Object({ submissions: Type.Array(ApplicantSubmissionSchema) }, { additionalProperties: false }),
  ),
  description: 'The applicant\'s last 20 submissions in the key\'s environment, newest first.',
  examples: [examples.applicantSubmissionsExample],
};
