import { Type, type Static } from '@sinclair/typebox';
import { envelopeSchema } from '../../http/envelope.ts';
import { CorrelationIdHeader } from '../../http/headers.ts';

export const STAFF_STATUSES = ['active', 'inactive'] as const;

export const ChatHeadersSchema = Type.Object({
  'x-chat-guild-id': Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'Required (400). Must equal the workspace\'s connected guild; a consistency check only.',
    examples: ['1234'],
  }),
  'x-acting-chat-user-id': Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'Required (400). Chat user id of the invoking staff member.',
    examples: ['5551'],
  }),
});

export const StaffMeHeadersSchema = Type.Object({
  ...ChatHeadersSchema.properties,
  'x-correlation-id': CorrelationIdHeader,
});

export const StaffMeSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  displayName: Type.String(),
  gameUserId: Type.String(),
  gameUsername: Type.String(),
  chatUserId: Type.Union([Type.String(), Type.Null()]),
  department: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }), Type.Null()]),
  rank: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union(
    STAFF_STATUSES.map((status) => Type.Literal(status)),
    { description: '`active` or `inactive` (inactive staff cannot start shifts).' },
  ),
  weeklyRequiredMinutes: Type.Integer({
    description: 'Effective weekly requirement: staff override, else department, else workspace setting, else 0.',
  }),
});
export type StaffMe = Static<typeof StaffMeSchema>;

export const StaffMeResponseSchema = {
  ...envelopeSchema(StaffMeSchema),
  description: 'The staff profile of the invoking chat user.',
  examples: [
    {
      data: {
        id: '6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b',
        displayName: 'Alice',
        gameUserId: '1001',
        gameUsername: 'alice',
        chatUserId: '5551',
        department: { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Moderation' },
        rank: 'Moderator',
        status: 'active',
        weeklyRequiredMinutes: 120,
      },
      meta: { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' },
    },
  ],
};
