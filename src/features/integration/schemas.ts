import { Type, type Static } from '@sinclair/typebox';
import { envelopeSchema } from '../../http/envelope.js';

export const IntegrationContextSchema = Type.Object({
  application: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }),
  workspace: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), slug: Type.String() }),
  environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  scopes: Type.Array(Type.String()),
  features: Type.Record(Type.String(), Type.Boolean()),
  chat: Type.Object({
    connected: Type.Boolean(),
    guildId: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.String(), Type.Null()]),
    connectedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }),
});
export type IntegrationContext = Static<typeof IntegrationContextSchema>;

export const IntegrationResponseSchema = envelopeSchema(IntegrationContextSchema);

export const IntegrationHeadersSchema = Type.Object({
  'x-chat-guild-id': Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'When sent, must equal the connected guild.' }),
  ),
});
