import { Type, type Static } from '@sinclair/typebox';
import { FEATURES, SCOPES } from '../../shared/actor.ts';
import { envelopeSchema } from '../../http/envelope.ts';
import { CorrelationIdHeader } from '../../http/headers.ts';

export const IntegrationContextSchema = Type.Object({
  application: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }),
  workspace: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), slug: Type.String() }),
  environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  scopes: Type.Array(Type.Union(SCOPES.map((scope) => Type.Literal(scope))), {
    description: 'Scopes of the calling key.',
  }),
  features: Type.Record(Type.String(), Type.Boolean(), {
    description: `Feature flags of the application (known features: ${FEATURES.map((f) => `\`${f}\``).join(', ')}).`,
  }),
  chat: Type.Object({
    connected: Type.Boolean(),
    guildId: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.String(), Type.Null()]),
    connectedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }),
});
export type IntegrationContext = Static<typeof IntegrationContextSchema>;

export const IntegrationResponseSchema = {
  ...envelopeSchema(IntegrationContextSchema),
  description: 'The context of the calling API key.',
  examples: [
    {
      data: {
        application: { id: '2d4f6a8c-1b3d-4e5f-8a7b-9c0d1e2f3a4b', name: 'Main game' },
        workspace: { id: '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918', name: 'Acme', slug: 'acme' },
        environment: 'test',
        scopes: ['activity:write', 'activity:read', 'staff:read', 'staff:write', 'applications:read', 'applications:write', 'console:link'],
        features: { activity: true, applications: true },
        chat: { connected: true, guildId: '1234', status: 'connected', connectedAt: '2026-01-01T00:00:00.000Z' },
      },
      meta: { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' },
    },
  ],
};

export const IntegrationHeadersSchema = Type.Object({
  'x-chat-guild-id': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Optional; when sent, must equal the connected guild (403).',
      examples: ['1234'],
    }),
  ),
  'x-correlation-id': CorrelationIdHeader,
});
