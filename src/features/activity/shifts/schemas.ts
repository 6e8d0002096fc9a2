import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { dataSchema } from '../../../http/envelope.ts';
import { UuidText } from '../../../http/validation.ts';
import { CorrelationHeadersSchema, CorrelationIdHeader, idempotencyKeyHeader } from '../../../http/headers.ts';
import * as examples from './examples.ts';
import { EnvironmentQuery } from '../reports/schemas.ts';

/** Largest numeric game id accepted: larger ones lose digits in JSON numbers and must be sent as strings. */
export const MAX_NUMERIC_GAME_ID = Number.MAX_SAFE_INTEGER;

export const CLIENT_END_REASONS = ['manual', 'player_left', 'server_shutdown'] as const;
export const END_REASONS = [...CLIENT_END_REASONS, 'heartbeat_timeout'] as const;
export type EndReason = (typeof END_REASONS)[number];

export function StringEnum<const T extends readonly string[]>(values: T, description: string) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
}

/** A game-platform id: a string of 1..64 characters or a non-negative safe integer (answered as its decimal string). */
function GameId(description: string) {
  return Type.Unsafe<string | number>({
    type: ['string', 'integer'],
    minLength: 1,
    maxLength: 64,
    minimum: 0,
    maximum: MAX_NUMERIC_GAME_ID,
    description: `${description} A string of 1 to 64 characters, or a non-negative integer up to 2^53-1 (stored as its decimal string).`,
  });
}

/** A body that may be left out entirely: the framework validates an absent body as `null`. */
export function OptionalBody<T extends TObject>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: ['object', 'null'] });
}

export const ServerId = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });
/** A response schema whose description becomes the OpenAPI response description. */
export function Described<T extends TSchema>(schema: T, description: string, example?: unknown): T {
  return example === undefined ? { ...schema, description } : { ...schema, description, examples: [example] };
}

export const Instant = (description: string) => Type.String({ format: 'date-time', description });

export const ShiftWriteHeadersSchema = Type.Object({
  'idempotency-key': idempotencyKeyHeader('the API key\'s application and environment'),
  'x-correlation-id': CorrelationIdHeader,
});

export const ShiftReadHeadersSchema = CorrelationHeadersSchema;

export const ShiftParamsSchema = Type.Object({
  shiftId: UuidText({
    description: 'Shift id (uuid, in any case) returned by start. Any other value names no shift (404).',
    examples: [examples.EXAMPLE_SHIFT_ID],
  }),
});

export const StartShiftBodySchema = Type.Object(
  {
    gameUserId: GameId('Game user id of a staff member of the key\'s workspace.'),
    universeId: GameId('Game universe; must be in the application\'s allowed list (403 `universe_not_allowed`).'),
    placeId: GameId('Game place.'),
    serverId: ServerId('Game server instance running the shift; heartbeats may name it (409 `server_mismatch`).'),
    startedAt: Type.Optional(
      Instant(
        'Game-server time the shift started; defaults to the server clock. Must lie within the last 24 hours and ' +
          'at most 60 seconds ahead of the server clock (400).',
      ),
    ),
  },
  { additionalProperties: false, examples: [examples.startBodyExample] },
);
export type StartShiftBody = Static<typeof StartShiftBodySchema>;

export const HeartbeatBodySchema = OptionalBody(
  Type.Object(
    {
      recordedAt: Type.Optional(
        Instant(
          'Game-server time of the heartbeat; defaults to the server clock. Not before `startedAt` and at most ' +
            '60 seconds ahead of the server clock (400).',
        ),
      ),
      serverId: Type.Optional(ServerId('When sent, must equal the shift\'s server (409 `server_mismatch`).')),
    },
    {
      additionalProperties: false,
      description: 'Optional body; send it as application/json.',
      examples: [examples.heartbeatBodyExample],
    },
  ),
);
export type HeartbeatBody = Static<typeof HeartbeatBodySchema>;

export const StopShiftBodySchema = OptionalBody(
  Type.Object(
    {
      endedAt: Type.Optional(
        Instant(
          'Game-server time the shift ended; defaults to the server clock. Not before `startedAt` and at most ' +
            '60 seconds ahead of the server clock (400).',
        ),
      ),
      reason: Type.Optional(
        StringEnum(CLIENT_END_REASONS, 'Why the shift ended; default `manual`. `heartbeat_timeout` is server-set only.'),
      ),
    },
    {
      additionalProperties: false,
      description: 'Optional body; send it as application/json.',
      examples: [examples.stopBodyExample],
    },
  ),
);
export type StopShiftBody = Static<typeof StopShiftBodySchema>;

export const ActiveShiftsQuerySchema = Type.Object({
  environment: EnvironmentQuery,
  limit: Type.Optional(
    Type.Integer({
      description:
        'Page size, an integer (plain decimal digits, optionally signed); default 50. Values outside 1..100 are ' +
        'clamped to it; anything that is not an integer is 400.',
      examples: [50],
    }),
  ),
  cursorStartedAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Keyset cursor from `nextCursor`: `startedAt` of the last shift seen. Sent together with `cursorId`.',
      examples: ['2026-03-11T12:00:00.000Z'],
    }),
  ),
  cursorId: Type.Optional(
    UuidText({
      format: 'uuid',
      description: 'Keyset cursor from `nextCursor`: `id` of the last shift seen. Sent together with `cursorStartedAt`.',
      examples: [examples.EXAMPLE_SHIFT_ID],
    }),
  ),
});
export type ActiveShiftsQuery = Static<typeof ActiveShiftsQuerySchema>;

const ShiftId = Type.String({ format: 'uuid', description: 'Shift id.' });
const EndReasonSchema = StringEnum(
  END_REASONS,
  '`manual`, `player_left` or `server_shutdown` as sent to stop; `heartbeat_timeout` is set by the server when no ' +
    'start or heartbeat was received for SHIFT_TIMEOUT_SECONDS (the shift then ends at its `lastHeartbeatAt`).',
);

/** A staff member as shift answers (and shift webhook events) name them. */
export const StaffRefSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  displayName: Type.String(),
  gameUserId: Type.String(),
});

const StartedShiftSchema = Type.Object({
  id: ShiftId,
  status: Type.Literal('active'),
  startedAt: Instant('Game-server start time.'),
  lastHeartbeatAt: Instant('Latest game-server heartbeat time (equals `startedAt` until one arrives).'),
});

export const StartShiftResponseSchema = Described(
  dataSchema(
    Type.Object({
      shift: StartedShiftSchema,
      existing: Type.Boolean({
        description: 'True when an active shift of this application already existed and is returned unchanged.',
      }),
    }),
  ),
  'The new shift (`existing: false`) or the staff member\'s active one (`existing: true`).',
  examples.startResponseExample,
);
export type StartShiftResult = Static<typeof StartShiftResponseSchema>['data'];

export const HeartbeatShiftSchema = Type.Object({
  id: ShiftId,
  status: Type.Literal('active'),
  lastHeartbeatAt: Instant('Latest game-server heartbeat time; it never moves backwards.'),
});
export type HeartbeatShift = Static<typeof HeartbeatShiftSchema>;
export const HeartbeatResponseSchema = Described(
  dataSchema(Type.Object({ shift: HeartbeatShiftSchema })),
  'The heartbeat was recorded.',
  examples.heartbeatResponseExample,
);

export const StoppedShiftSchema = Type.Object({
  id: ShiftId,
  status: Type.Literal('completed'),
  startedAt: Instant('Game-server start time.'),
  endedAt: Instant('Game-server end time.'),
  durationSeconds: Type.Integer({ minimum: 0, description: 'Whole seconds from `startedAt` to `endedAt`, rounded down.' }),
  minutes: Type.Integer({ minimum: 0, description: '`durationSeconds` in whole minutes, rounded down.' }),
  endReason: EndReasonSchema,
});
export type StoppedShift = Static<typeof StoppedShiftSchema>;
export const StopShiftResponseSchema = Described(
  dataSchema(Type.Object({ shift: StoppedShiftSchema })),
  'The completed shift with its duration.',
  examples.stopResponseExample,
);

const ActiveShiftSchema = Type.Object({
  id: ShiftId,
  status: Type.Literal('active'),
  startedAt: Instant('Game-server start time.'),
  lastHeartbeatAt: Instant('Latest game-server heartbeat time.'),
  elapsedSeconds: Type.Integer({
    minimum: 0,
    description: 'Whole seconds from `startedAt` to the server clock now (0 for a start time slightly ahead).',
  }),
  universeId: Type.String(),
  placeId: Type.String(),
  serverId: Type.String(),
  staff: StaffRefSchema,
});
export type ActiveShift = Static<typeof ActiveShiftSchema>;

const CursorSchema = Type.Object({
  cursorStartedAt: Instant('Pass as `cursorStartedAt`.'),
  cursorId: Type.String({ format: 'uuid', description: 'Pass as `cursorId`.' }),
});

export const ActiveShiftsResponseSchema = Described(
  dataSchema(
    Type.Object({
      shifts: Type.Array(ActiveShiftSchema),
      nextCursor: Type.Union([CursorSchema, Type.Null()], { description: 'Cursor of the next page; null on the last.' }),
    }),
  ),
  'One page of active shifts.',
  examples.activeListResponseExample,
);
export type ActiveShiftPage = Static<typeof ActiveShiftsResponseSchema>['data'];

export const ShiftDetailSchema = Type.Object({
  id: ShiftId,
  status: StringEnum(['active', 'completed'] as const, '`active` or `completed`.'),
  startedAt: Instant('Game-server start time.'),
  lastHeartbeatAt: Instant('Latest game-server heartbeat time.'),
  elapsedSeconds: Type.Optional(
    Type.Integer({ minimum: 0, description: 'While active: whole seconds from `startedAt` to the server clock now.' }),
  ),
  universeId: Type.String(),
  placeId: Type.String(),
  serverId: Type.String(),
  staff: StaffRefSchema,
  endedAt: Type.Optional(Instant('Once completed: game-server end time.')),
  durationSeconds: Type.Optional(Type.Integer({ minimum: 0, description: 'Once completed: whole seconds.' })),
  minutes: Type.Optional(Type.Integer({ minimum: 0, description: 'Once completed: whole minutes.' })),
  endReason: Type.Optional(EndReasonSchema),
});
export type ShiftDetail = Static<typeof ShiftDetailSchema>;
export const ShiftDetailResponseSchema = Described(
  dataSchema(Type.Object({ shift: ShiftDetailSchema })),
  'The shift, with the fields that apply to its status.',
  examples.shiftDetailResponseExample,
);
