/**
 * Schemas of the game-server batch calls (docs/API.md, "Game-server batch calls"): a batch heartbeat and the stop of a
 * whole server.
 */
import { Type, type Static } from '@sinclair/typebox';
import { dataSchema } from '../../../http/envelope.ts';
import {
  CLIENT_END_REASONS,
  Described,
  HeartbeatShiftSchema,
  Instant,
  OptionalBody,
  ServerId,
  StoppedShiftSchema,
  StringEnum,
} from './schemas.ts';

/** The most shifts one batch heartbeat names. */
export const MAX_BATCH_SHIFTS = 200;

const EXAMPLE_SHIFT = '0b5e7c1e-8f0a-4c7e-9a43-2f1d6c3b9e10';
const EXAMPLE_OTHER = '4d2c9a77-5b1e-4f3a-8c6d-0e9f8a7b6c5d';

export const HeartbeatBatchBodySchema = Type.Object(
  {
    serverId: ServerId('The game server sending the batch; compared with each shift\'s server (`server_mismatch`).'),
    shiftIds: Type.Array(Type.String({ description: 'A shift id returned by start.' }), {
      minItems: 1,
      maxItems: MAX_BATCH_SHIFTS,
      uniqueItems: true,
      description:
        `1 to ${MAX_BATCH_SHIFTS} distinct shift ids. Ids are compared as uuids, ignoring case: two spellings of ` +
        'one uuid are a duplicate (400).',
    }),
    recordedAt: Type.Optional(
      Instant(
        'Game-server time of the heartbeats; defaults to the server clock. At most 60 seconds ahead of the server ' +
          'clock (400 for the whole batch); before a shift\'s `startedAt` it fails that shift alone ' +
          '(`validation_failed`).',
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'Send it as application/json.',
    examples: [{ serverId: 'srv-eu-1', shiftIds: [EXAMPLE_SHIFT, EXAMPLE_OTHER], recordedAt: '2026-11-24T18:30:00Z' }],
  },
);
export type HeartbeatBatchBody = Static<typeof HeartbeatBatchBodySchema>;

/** Why a batch heartbeat did not apply to one shift. */
export const ITEM_ERROR_CODES = ['not_found', 'shift_not_active', 'server_mismatch', 'validation_failed'] as const;
export type ItemErrorCode = (typeof ITEM_ERROR_CODES)[number];

const ItemErrorSchema = Type.Object({
  code: StringEnum(ITEM_ERROR_CODES, 'Why the heartbeat did not apply to this shift.'),
  message: Type.String(),
});

const HeartbeatBatchItemSchema = Type.Union([
  Type.Object(
    { shiftId: Type.String({ description: 'The id as sent.' }), shift: HeartbeatShiftSchema },
    { additionalProperties: false, description: 'The heartbeat applied to this shift.' },
  ),
  Type.Object(
    { shiftId: Type.String({ description: 'The id as sent.' }), error: ItemErrorSchema },
    { additionalProperties: false, description: 'The heartbeat did not apply to this shift; nothing changed for it.' },
  ),
]);
export type HeartbeatBatchItem = Static<typeof HeartbeatBatchItemSchema>;

export const HeartbeatBatchResponseSchema = Described(
  {
    ...dataSchema(
      Type.Object({
        results: Type.Array(HeartbeatBatchItemSchema, { description: 'One entry per listed shift, in request order.' }),
      }),
    ),
    examples: [
      {
        data: {
          results: [
            {
              shiftId: EXAMPLE_SHIFT,
              shift: { id: EXAMPLE_SHIFT, status: 'active', lastHeartbeatAt: '2026-11-24T18:30:00.000Z' },
            },
            {
              shiftId: EXAMPLE_OTHER,
              error: { code: 'shift_not_active', message: 'The shift is not active (it was stopped or timed out).' },
            },
          ],
        },
      },
    ],
  },
  'A result for every listed shift, in request order.',
);

export const ServerParamsSchema = Type.Object({
  serverId: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The game server whose active shifts are stopped (1 to 128 characters).',
    examples: ['srv-eu-1'],
  }),
});

export const ServerStopBodySchema = OptionalBody(
  Type.Object(
    {
      endedAt: Type.Optional(
        Instant(
          'Game-server time the server stopped; defaults to the server clock; at most 60 seconds ahead of it ' +
            '(400). A shift started after it ends at its own `startedAt`.',
        ),
      ),
      reason: Type.Optional(StringEnum(CLIENT_END_REASONS, 'Why the shifts ended; default `server_shutdown`.')),
    },
    {
      additionalProperties: false,
      description: 'Optional body; when sent, send it as application/json.',
      examples: [{ endedAt: '2026-11-24T18:31:00Z', reason: 'server_shutdown' }],
    },
  ),
);
export type ServerStopBody = Static<typeof ServerStopBodySchema>;

export const ServerStopResponseSchema = Described(
  {
    ...dataSchema(
      Type.Object({
        shifts: Type.Array(StoppedShiftSchema, {
          description: 'Every shift this call stopped, as the single stop returns it, by `startedAt` then `id`.',
        }),
      }),
    ),
    examples: [
      {
        data: {
          shifts: [
            {
              id: EXAMPLE_SHIFT,
              status: 'completed',
              startedAt: '2026-11-24T17:00:00.000Z',
              endedAt: '2026-11-24T18:31:00.000Z',
              durationSeconds: 5460,
              minutes: 91,
              endReason: 'server_shutdown',
            },
          ],
        },
      },
    ],
  },
  'The shifts that were active on the server, now completed (an empty list when none was).',
);
