/**
 * The interactions endpoint as the OpenAPI document describes it (docs/DISCORD.md). Its request is Discord's
 * interaction and its answer Discord's interaction response, not this API's envelope; the body is read as raw
 * bytes (the signature covers them), so these schemas document it and do not validate it.
 */
import { Type } from '@sinclair/typebox';

export const InteractionParamsSchema = Type.Object({
  applicationId: Type.String({
    maxLength: 32,
    description: 'The Discord application\'s id, as in the provisioning document\'s `discord.applicationId`.',
    examples: ['1234567890123456789'],
  }),
});

export const InteractionHeadersSchema = Type.Object({
  'x-signature-ed25519': Type.Optional(
    Type.String({
      description: 'Ed25519 signature (hex) of `X-Signature-Timestamp` + the raw body, by the application\'s key.',
      examples: [`9e3f0c${'0'.repeat(122)}`],
    }),
  ),
  'x-signature-timestamp': Type.Optional(
    Type.String({ description: 'Unix seconds; more than 5 minutes from the server clock is refused (401).', examples: ['1773230400'] }),
  ),
});

export const InteractionBodySchema = Type.Object(
  {
    id: Type.String({ description: 'The interaction\'s id: the idempotency key of a write made from it.' }),
    type: Type.Integer({ enum: [1, 2, 3], description: '1 PING, 2 a slash command, 3 a button press.' }),
    application_id: Type.Optional(Type.String()),
    guild_id: Type.Optional(Type.String({ description: 'The Discord server: it picks the workspace (`chat.guildId`).' })),
    member: Type.Optional(
      Type.Object(
        { user: Type.Object({ id: Type.String({ description: 'The acting user, matched to a `chatUserId`.' }) }, { additionalProperties: true }) },
        { additionalProperties: true },
      ),
    ),
    data: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The command and its options, or the button\'s `custom_id`.' })),
  },
  {
    additionalProperties: true,
    description: 'A Discord interaction, as Discord sends it.',
    examples: [
      {
        id: '1400000000000000001',
        type: 2,
        application_id: '1234567890123456789',
        guild_id: '900001',
        member: { user: { id: '5551', username: 'alice' } },
        data: { name: 'activity', type: 1 },
        token: 'interaction-token',
        version: 1,
      },
    ],
  },
);

const MessageSchema = Type.Object(
  {
    content: Type.String({ maxLength: 2000 }),
    flags: Type.Optional(Type.Integer({ description: '64: ephemeral, seen only by the person who used the command.' })),
    allowed_mentions: Type.Object({ parse: Type.Array(Type.String(), { maxItems: 0 }) }, { description: 'Always `{ "parse": [] }`: nothing in a message pings anyone.' }),
    components: Type.Optional(Type.Array(Type.Unknown(), { description: 'Action rows of "Approve" and "Deny" buttons (`/timeoff pending`).' })),
  },
  { additionalProperties: false },
);

export const InteractionResponseSchema = Type.Object(
  {
    type: Type.Integer({ enum: [1, 4, 7], description: '1 PONG (to a PING), 4 a message (to a command, or a refusal), 7 the pressed message updated.' }),
    data: Type.Optional(MessageSchema),
  },
  {
    additionalProperties: false,
    description: 'A Discord interaction response.',
    examples: [
      { type: 1 },
      {
        type: 4,
        data: {
          content: '**This week**: 45 minutes of 120 minutes required (37.5%).\nNot on shift now.',
          flags: 64,
          allowed_mentions: { parse: [] },
          components: [],
        },
      },
    ],
  },
);
