import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { envelopeSchema } from '../../http/envelope.ts';
import { CorrelationIdHeader, idempotencyKeyHeader } from '../../http/headers.ts';
import { UuidText } from '../../http/validation.ts';
import { UUID_PATTERN } from '../../shared/ids.ts';
import { ChatHeadersSchema } from '../staff/schemas.ts';
import * as examples from './examples.ts';
import { NOTE_MAX, NOTICE_STATUSES, REASON_MAX } from './rules.ts';

export const LIST_LIMIT_DEFAULT = 25;
export const LIST_LIMIT_MAX = 100;

const DateTime = Type.String({ format: 'date-time' });
const Uuid = Type.String({ format: 'uuid' });
const NullableDateTime = (description: string) => Type.Union([DateTime, Type.Null()], { description });
const Status = Type.Union(
  NOTICE_STATUSES.map((status) => Type.Literal(status)),
  { description: '`pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement.' },
);

export const NoticeSchema = Type.Object(
  {
    id: Uuid,
    staffId: Uuid,
    environment: Type.Union([Type.Literal('test'), Type.Literal('live')], {
      description: 'The environment of the key that asked for it (`live` for a provisioned notice).',
    }),
    startsAt: DateTime,
    endsAt: Type.String({
      format: 'date-time',
      description: 'End (exclusive). A staff member back early from an approved notice under way moves it to then.',
    }),
    reason: Type.String({ description: 'Why, as the staff member wrote it (trimmed).' }),
    status: Status,
    createdAt: Type.String({ format: 'date-time', description: 'When it was asked for (a provisioned one: first written).' }),
    decidedAt: NullableDateTime('When it was approved or denied; null before a decision.'),
    decisionNote: Type.Union([Type.String(), Type.Null()], { description: 'The decision\'s note; null when none was sent.' }),
  },
  { additionalProperties: false },
);
export type Notice = Static<typeof NoticeSchema>;

export const NoticeItemSchema = Type.Composite(
  [
    NoticeSchema,
    Type.Object({
      staff: Type.Object(
        {
          id: Uuid,
          displayName: Type.String(),
          gameUserId: Type.String(),
          chatUserId: Type.Union([Type.String(), Type.Null()]),
          departmentId: Type.Union([Uuid, Type.Null()]),
        },
        { additionalProperties: false },
      ),
      decidedBy: Type.Union([Type.String(), Type.Null()], { description: 'The deciding member\'s `userId`; else null.' }),
    }),
  ],
  { additionalProperties: false },
);
export type NoticeItem = Static<typeof NoticeItemSchema>;

export const NoticeResultSchema = Type.Object(
  {
    notice: NoticeSchema,
    commandId: Type.String({ format: 'uuid', description: 'The recorded command.' }),
    eventId: Type.String({ format: 'uuid', description: 'The emitted event.' }),
  },
  { additionalProperties: false },
);
export type NoticeResult = Static<typeof NoticeResultSchema>;

// ---- Requests ----

export const StaffWriteHeadersSchema = Type.Object({
  ...ChatHeadersSchema.properties,
  'idempotency-key': idempotencyKeyHeader('the application and environment'),
  'x-correlation-id': CorrelationIdHeader,
});

export const StaffReadHeadersSchema = Type.Object({
  ...ChatHeadersSchema.properties,
  'x-correlation-id': CorrelationIdHeader,
});

const WorkspaceSelector = Type.Optional(
  Type.String({
    pattern: UUID_PATTERN,
    description:
      'Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 ' +
      '`workspace_access_denied`); only that workspace\'s notices are then visible. Without it, the notices of every ' +
      'workspace the caller is a member of (and, for the list, holds `notices.decide` in) are.',
    examples: [examples.WORKSPACE_ID],
  }),
);

export const ManagerReadHeadersSchema = Type.Object({
  'x-correlation-id': CorrelationIdHeader,
  'x-service-workspace-id': WorkspaceSelector,
});

export const ManagerWriteHeadersSchema = Type.Object({
  'idempotency-key': idempotencyKeyHeader('the dashboard user'),
  'x-correlation-id': CorrelationIdHeader,
  'x-service-workspace-id': WorkspaceSelector,
});

export const RequestBodySchema = Type.Object(
  {
    startsAt: Type.String({ format: 'date-time', description: 'ISO 8601 date-time with an offset; at most 7 days before now.' }),
    endsAt: Type.String({
      format: 'date-time',
      description: `ISO 8601 date-time with an offset; after \`startsAt\` and after now, at most the workspace's \`maxNoticeDays\` × 24 h after \`startsAt\`.`,
    }),
    reason: Type.String({ description: `1 to ${REASON_MAX} characters after trimming.` }),
  },
  { additionalProperties: false, examples: [examples.requestBodyExample] },
);
export type RequestBody = Static<typeof RequestBodySchema>;

/** An optional JSON object body: Fastify validates an absent body as `null`. */
function OptionalBody<T extends TSchema>(schema: T, description: string) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: ['object', 'null'], description });
}

export const CancelBodySchema = OptionalBody(
  Type.Object({}, { additionalProperties: false, examples: [{}] }),
  'Optional: no body, or `{}`. Unknown properties are rejected (400).',
);

export const DecisionBodySchema = OptionalBody(
  Type.Object(
    { note: Type.Optional(Type.String({ description: `1 to ${NOTE_MAX} characters after trimming.` })) },
    { additionalProperties: false, examples: [examples.decisionBodyExample] },
  ),
  'Optional. Unknown properties are rejected (400).',
);
export type DecisionBody = NonNullable<Static<typeof DecisionBodySchema>>;

export const NoticeParamsSchema = Type.Object({
  noticeId: UuidText({
    description:
      'Notice id (uuid, in any case). A value that is not a uuid names no notice and is answered 404 `not_found`, ' +
      'like any notice the caller cannot see.',
    examples: [examples.NOTICE_ID],
  }),
});

const STATUS = `(${NOTICE_STATUSES.join('|')})`;

export const ListQuerySchema = Type.Object({
  status: Type.Optional(
    Type.String({
      pattern: `^${STATUS}(,${STATUS})*$`,
      description: 'One status or a comma-separated list of `pending`, `approved`, `denied`, `cancelled`; default `pending`.',
      examples: ['pending'],
    }),
  ),
  environment: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('test')], {
      default: 'live',
      description: '`live` (default) or `test`: the environment of the key that asked for the notices.',
      examples: ['live'],
    }),
  ),
  staffId: Type.Optional(
    UuidText({
      format: 'uuid',
      description: 'Only this staff member\'s notices (a uuid; one that names no staff member gives an empty page).',
      examples: [examples.STAFF_ID],
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: LIST_LIMIT_MAX,
      default: LIST_LIMIT_DEFAULT,
      description: 'Page size, 1..100 (default 25); outside it, or not an integer, 400.',
      examples: [LIST_LIMIT_DEFAULT],
    }),
  ),
  cursorStartsAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Keyset cursor from `nextCursor`: `startsAt` of the last notice seen. Sent with `cursorId`.',
      examples: ['2026-03-16T00:00:00.000Z'],
    }),
  ),
  cursorId: Type.Optional(
    UuidText({
      format: 'uuid',
      description: 'Keyset cursor from `nextCursor`: `id` of the last notice seen. Sent with `cursorStartsAt`.',
      examples: [examples.NOTICE_ID],
    }),
  ),
});
export type ListQuery = Static<typeof ListQuerySchema>;

// ---- Answers ----

const NoticePageSchema = Type.Object({
  notices: Type.Array(NoticeItemSchema),
  nextCursor: Type.Union(
    [
      Type.Object({
        cursorStartsAt: Type.String({ format: 'date-time', description: 'Pass as `cursorStartsAt`.' }),
        cursorId: Type.String({ format: 'uuid', description: 'Pass as `cursorId`.' }),
      }),
      Type.Null(),
    ],
    { description: 'Cursor of the next page; null on the last.' },
  ),
});
export type NoticePage = Static<typeof NoticePageSchema>;

function success<T extends TSchema>(data: T, description: string, example: unknown) {
  return { ...envelopeSchema(data), description, examples: [example] };
}

export const RequestResponseSchema = success(NoticeResultSchema, 'The notice was asked for (`pending`).', examples.requestResponseExample);
export const OwnListResponseSchema = success(
  Type.Object({ notices: Type.Array(NoticeSchema) }),
  'The acting staff member\'s notices.',
  examples.ownListResponseExample,
);
export const CancelResponseSchema = success(
  NoticeResultSchema,
  'The notice was cancelled (or, approved and under way, ended now).',
  examples.cancelResponseExample,
);
export const ListResponseSchema = success(NoticePageSchema, 'One page of notices.', examples.listResponseExample);
export const ApproveResponseSchema = success(NoticeResultSchema, 'The notice was approved.', examples.approveResponseExample);
export const DenyResponseSchema = success(NoticeResultSchema, 'The notice was denied.', examples.denyResponseExample);
