import { Type, type Static } from '@sinclair/typebox';
import { envelopeSchema } from '../../http/envelope.js';

export const ChatHeadersSchema = Type.Object({
  'x-chat-guild-id': Type.String({ minLength: 1, maxLength: 64, description: 'Must equal the connected guild.' }),
  'x-acting-chat-user-id': Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'Chat user id of the invoking staff member.',
  }),
});

export const StaffMeSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  displayName: Type.String(),
  gameUserId: Type.String(),
  gameUsername: Type.String(),
  chatUserId: Type.Union([Type.String(), Type.Null()]),
  department: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }), Type.Null()]),
  rank: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({ description: '`active` or `inactive`.' }),
  weeklyRequiredMinutes: Type.Integer({
    description: 'Effective weekly requirement: staff override, else department, else workspace setting, else 0.',
  }),
});
export type StaffMe = Static<typeof StaffMeSchema>;

export const StaffMeResponseSchema = envelopeSchema(StaffMeSchema);
