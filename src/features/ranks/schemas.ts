import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { envelopeSchema } from '../../http/envelope.ts';
import { CorrelationIdHeader, idempotencyKeyHeader } from '../../http/headers.ts';
import { UuidText } from '../../http/validation.ts';
import { UUID_PATTERN } from '../../shared/ids.ts';
import * as examples from './examples.ts';
import { RANK_NAME_MAX, REASON_MAX, SYNC_STATUSES } from './rules.ts';

const DateTime = Type.String({ format: 'date-time' });
const Uuid = Type.String({ format: 'uuid' });
const NullableText = Type.Union([Type.String(), Type.Null()]);

export const RankStaffSchema = Type.Object(
  {
    id: Uuid,
    displayName: Type.String(),
    gameUserId: Type.String(),
    gameUsername: Type.String(),
    chatUserId: NullableText,
    departmentId: Type.Union([Uuid, Type.Null()]),
    rank: Type.Union([Type.String(), Type.Null()], { description: 'The rank now held; null for none.' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
  },
  { additionalProperties: false },
);
export type RankStaff = Static<typeof RankStaffSchema>;

export const WorkspaceRankSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: RANK_NAME_MAX, description: 'The rank\'s name, as staff `rank` values carry it.' }),
    order: Type.Integer({ minimum: 1, maximum: 255, description: 'The group role\'s rank number, unique in the workspace.' }),
    assignable: Type.Boolean({
      description: 'Whether the API may give and take it: `false` for a rank such as an owner\'s (403 `rank_not_assignable`).',
    }),
  },
  { additionalProperties: false },
);
export type WorkspaceRank = Static<typeof WorkspaceRankSchema>;

export const SyncErrorSchema = Type.Object(
  {
    status: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status Open Cloud answered; null for a timeout or a network error.' }),
    code: Type.String({ description: 'Open Cloud\'s error `code` (e.g. `PERMISSION_DENIED`), or `timeout`, `network_error`, `erased`.' }),
    message: Type.String({ description: 'Open Cloud\'s error `message`, or what went wrong.' }),
  },
  { additionalProperties: false },
);

export const RankChangeSchema = Type.Object(
  {
    id: Uuid,
    staffId: Uuid,
    fromRank: Type.Union([Type.String(), Type.Null()], { description: 'The rank before; null for an acceptance\'s entry rank.' }),
    toRank: Type.String(),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'As sent, trimmed; null when none was sent.' }),
    changedBy: Type.String({ description: 'The member\'s `userId` (for an entry rank, the deciding member\'s).' }),
    createdAt: DateTime,
    sync: Type.Object(
      {
        status: Type.Union(
          SYNC_STATUSES.map((status) => Type.Literal(status)),
          {
            description:
              '`pending` (to be applied, or retrying), `applied`, `failed` (Open Cloud refused, or the staff member ' +
              'was erased), `not_configured` (no group id or API key, or neither rank has a role id).',
          },
        ),
        attempts: Type.Integer({ minimum: 0, description: 'Every try so far.' }),
        lastError: Type.Union([SyncErrorSchema, Type.Null()], { description: 'The last failed try; null once applied.' }),
        appliedAt: Type.Union([DateTime, Type.Null()]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type RankChange = Static<typeof RankChangeSchema>;

export const ChangeResultSchema = Type.Object(
  {
    staff: RankStaffSchema,
    change: RankChangeSchema,
    commandId: Type.String({ format: 'uuid', description: 'The recorded command.' }),
    eventId: Type.String({ format: 'uuid', description: 'The emitted event.' }),
  },
  { additionalProperties: false },
);
export type ChangeResult = Static<typeof ChangeResultSchema>;

/** `staff.rank.sync_failed`'s data. */
export const SyncFailedSchema = Type.Object({ staff: RankStaffSchema, change: RankChangeSchema }, { additionalProperties: false });

export const ChangeBodySchema = Type.Object(
  {
    rank: Type.String({ minLength: 1, maxLength: RANK_NAME_MAX, description: 'The rank to give: one of the workspace\'s rank names.' }),
    reason: Type.Optional(Type.String({ description: `1 to ${REASON_MAX} characters after trimming.` })),
  },
  { additionalProperties: false, examples: [{ rank: 'Senior Moderator', reason: 'Six months of steady work' }] },
);
export type ChangeBody = Static<typeof ChangeBodySchema>;

export const StaffParamsSchema = Type.Object({
  staffId: UuidText({
    description: 'Staff member id (uuid, in any case). Not a uuid, unknown, or not visible to the caller: 404 `not_found`.',
    examples: [examples.STAFF_ID],
  }),
});

const WorkspaceSelector = Type.Optional(
  Type.String({
    pattern: UUID_PATTERN,
    description:
      'Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 ' +
      '`workspace_access_denied`); only that workspace\'s staff are then visible.',
    examples: [examples.WORKSPACE_ID],
  }),
);

export const ReadHeadersSchema = Type.Object({
  'x-correlation-id': CorrelationIdHeader,
  'x-service-workspace-id': WorkspaceSelector,
});

export const WriteHeadersSchema = Type.Object({
  'idempotency-key': idempotencyKeyHeader('the dashboard user'),
  'x-correlation-id': CorrelationIdHeader,
  'x-service-workspace-id': WorkspaceSelector,
});

function success<T extends TSchema>(data: T, description: string, example: unknown) {
  return { ...envelopeSchema(data), description, examples: [example] };
}

export const ChangeResponseSchema = success(ChangeResultSchema, 'The rank was changed; its sync is under way.', examples.changeResponseExample);
export const ListResponseSchema = success(
  Type.Object({ changes: Type.Array(RankChangeSchema) }),
  'The staff member\'s rank changes, newest first, at most 50.',
  examples.listResponseExample,
);
