import { Type, type Static } from '@sinclair/typebox';
import { envelopeSchema } from '../../../http/envelope.ts';
import { CorrelationHeadersSchema } from '../../../http/headers.ts';
import { UuidText } from '../../../http/validation.ts';
import * as examples from './examples.ts';
import { QuestionSchema } from './questions.ts';

export const FormSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    slug: Type.String(),
    status: Type.Union([Type.Literal('open'), Type.Literal('closed')], {
      description: 'A closed form takes no submissions (409 `form_closed`).',
    }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'Null when none was given.' }),
    departmentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'Null when none was given.' }),
    cooldownDays: Type.Integer({
      minimum: 0,
      description: 'How long after a rejection the same applicant may apply to this form again (0: at once).',
    }),
    questions: Type.Array(QuestionSchema, { description: 'In the order the form asks them.' }),
  },
  { additionalProperties: false },
);
export type FormView = Static<typeof FormSchema>;

export const FormReadHeadersSchema = CorrelationHeadersSchema;

export const FormParamsSchema = Type.Object({
  formId: UuidText({
    description:
      'Form id (uuid, in any case). A value that is not a uuid, or a form of another workspace, names no form: 404.',
    examples: [examples.FORM_ID],
  }),
});

export const FormListResponseSchema = {
  ...envelopeSchema(Type.Object({ forms: Type.Array(FormSchema) }, { additionalProperties: false })),
  description: 'Every form of the key\'s workspace, open and closed, ordered by name then id.',
  examples: [examples.formListResponseExample],
};

export const FormResponseSchema = {
  ...envelopeSchema(Type.Object({ form: FormSchema }, { additionalProperties: false })),
  description: 'The form.',
  examples: [examples.formResponseExample],
};
