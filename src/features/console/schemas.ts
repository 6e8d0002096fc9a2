import { Type, type Static } from '@sinclair/typebox';
import { envelopeSchema } from '../../http/envelope.ts';
import { CorrelationHeadersSchema, CorrelationIdHeader } from '../../http/headers.ts';
import { PERMISSIONS } from '../../shared/actor.ts';
import { WorkspaceRankSchema } from '../ranks/schemas.ts';
import { ChatHeadersSchema } from '../staff/schemas.ts';

const META = { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' };
const USER_ID = 'user-reviewer';

export const SignInLinkHeadersSchema = Type.Object({
  ...ChatHeadersSchema.properties,
  'x-correlation-id': CorrelationIdHeader,
});

export const SignInLinkBodySchema = Type.Unsafe<Record<string, never> | null>({
  ...Type.Object({}, { additionalProperties: false, examples: [{}] }),
  type: ['object', 'null'],
  description: 'Optional: no body, or `{}`. Unknown properties are rejected (400).',
});

export const SignInLinkSchema = Type.Object({
  url: Type.String({
    description:
      'PUBLIC_BASE_URL (else the address the gateway is reached at) + `/console/sign-in#code=<code>`: the code, ' +
      '43 random base62 characters, travels in the fragment, which browsers never send to a server. Send it to ' +
      'the member privately; whoever holds it can sign in as them until it is used or expires.',
  }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the link stops working: 10 minutes after it was made.' }),
});
export type SignInLink = Static<typeof SignInLinkSchema>;

export const SignInLinkResponseSchema = {
  ...envelopeSchema(SignInLinkSchema),
  description: 'A new one-time sign-in link for the acting chat user.',
  examples: [
    {
      data: {
        url: 'https://gateway.example.com/console/sign-in#code=7Hq2LmX9cTz4Rb8Kw1NpQs3VxY5Za6Bc8De0Fg2Hi4J',
        expiresAt: '2026-03-11T12:10:00.000Z',
      },
      meta: META,
    },
  ],
};

export const SessionBodySchema = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The code of a sign-in link (what follows `#code=` in its address).',
    }),
  },
  { additionalProperties: false, examples: [{ code: '7Hq2LmX9cTz4Rb8Kw1NpQs3VxY5Za6Bc8De0Fg2Hi4J' }] },
);

export const SessionSchema = Type.Object({
  token: Type.String({
    description:
      'A dashboard token (JWT, HS256, signed with a key only the gateway holds, `sub` = `userId`), valid 8 hours: ' +
      'send it as `Authorization: Bearer <token>` to every dashboard operation.',
  }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the token expires (8 hours after the exchange).' }),
  userId: Type.String({ description: 'The member the link was made for.' }),
});

export const SessionResponseSchema = {
  ...envelopeSchema(SessionSchema),
  description: 'A dashboard token for the member the code was made for.',
  examples: [
    {
      data: {
        token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJ3b3Jrc3BhY2UtZ2F0ZXdheSJ9.c2lnbmF0dXJl',
        expiresAt: '2026-03-11T20:00:00.000Z',
        userId: USER_ID,
      },
      meta: META,
    },
  ],
};

export const SessionHeadersSchema = CorrelationHeadersSchema;

export const ConsoleMeSchema = Type.Object({
  userId: Type.String({ description: 'The dashboard token\'s subject.' }),
  workspaces: Type.Array(
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      name: Type.String(),
      timezone: Type.String({ description: 'The workspace\'s IANA time zone, in which the console shows times.' }),
      createStaffProfileOnAccept: Type.Boolean({
        description:
          'The workspace setting: whether accepting an application creates a staff profile when the acceptance ' +
          'does not say (the console\'s "Create staff profile" box starts from it).',
      }),
      permissions: Type.Array(Type.Union(PERMISSIONS.map((permission) => Type.Literal(permission))), {
        description: 'What the caller may do in this workspace.',
      }),
      ranks: Type.Array(WorkspaceRankSchema, {
        description:
          'The workspace\'s ranks (the provisioning document\'s `ranks`), by `order`: the names a staff member\'s ' +
          'rank may take, for a page that changes ranks (`POST /v1/staff/{staffId}/rank`, `staff.rank`). Empty ' +
          'when the workspace has none (any name is then a rank). Role ids and the group\'s settings are never shown.',
      }),
    }),
    { description: 'The workspaces the caller is a member of, ordered by name then id; empty for none.' },
  ),
});

export const ConsoleMeResponseSchema = {
  ...envelopeSchema(ConsoleMeSchema),
  description: 'The caller and their workspaces.',
  examples: [
    {
      data: {
        userId: USER_ID,
        workspaces: [
          {
            id: '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918',
            name: 'Acme',
            timezone: 'Europe/Berlin',
            createStaffProfileOnAccept: true,
            permissions: ['applications.review', 'applications.decide', 'staff.create', 'notices.decide', 'staff.rank'],
            ranks: [
              { name: 'Trainee', order: 10, assignable: true },
              { name: 'Moderator', order: 20, assignable: true },
              { name: 'Senior Moderator', order: 30, assignable: true },
              { name: 'Owner', order: 255, assignable: false },
            ],
          },
          {
            id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
            name: 'Beta',
            timezone: 'UTC',
            createStaffProfileOnAccept: false,
            permissions: ['applications.review'],
            ranks: [],
          },
        ],
      },
      meta: META,
    },
  ],
};

export const ConsoleMeHeadersSchema = CorrelationHeadersSchema;
