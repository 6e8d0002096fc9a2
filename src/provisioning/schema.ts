import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ENVIRONMENTS, FEATURES, PERMISSIONS, SCOPES } from '../shared/actor.ts';
import { MAX_QUESTIONS, QuestionInputSchema } from '../features/applications/forms/questions.ts';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../webhooks/event-types.ts';
import { UUID_PATTERN } from '../shared/ids.ts';

/**
 * The provisioning document (docs/OPERATING.md, "Provisioning"). Every object rejects unknown properties so a typo fails loudly
 * instead of being ignored. Checks that need more than one value (time order, references, key prefixes, time
 * zones) are made after this structural pass, in document.ts and consistency.ts.
 */

export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

export const STAFF_STATUSES = ['active', 'inactive'] as const;
export const NOTICE_STATUSES = ['approved', 'pending', 'denied', 'cancelled'] as const;
export const SUBMISSION_STATUSES = ['submitted', 'under_review', 'accepted', 'rejected'] as const;
export const FORM_STATUSES = ['open', 'closed'] as const;
export const END_REASONS = ['manual', 'player_left', 'server_shutdown', 'heartbeat_timeout'] as const;

function StringEnum<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
}

/** A scalar schema that also accepts null (one JSON Schema `type` list, so errors stay readable). */
function Nullable<T extends TSchema>(schema: T) {
  const type: unknown = schema.type;
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

function Strict<T extends Parameters<typeof Type.Object>[0]>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

const Uuid = Type.String({ pattern: UUID_PATTERN });
const DateTime = Type.String({ format: 'date-time' });
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const ExternalId = Text(64);
const Minutes = Type.Integer({ minimum: 0 });

/** A map of known flag names to booleans; unknown names are rejected. */
function FlagMap<const T extends readonly string[]>(names: T) {
  const properties = Object.fromEntries(names.map((name) => [name, Type.Optional(Type.Boolean())]));
  return Type.Unsafe<Partial<Record<T[number], boolean>>>(Type.Object(properties, { additionalProperties: false }));
}

export const SettingsSchema = Strict({
  createStaffProfileOnAccept: Type.Optional(Type.Boolean()),
  weeklyRequiredMinutes: Type.Optional(Nullable(Minutes)),
  /** The longest inactivity notice staff may ask for, in days (default 30). */
  maxNoticeDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
});

export const ChatSchema = Strict({
  guildId: Nullable(ExternalId),
  status: Text(64),
  connectedAt: Type.Optional(Nullable(DateTime)),
});

export const DepartmentSchema = Strict({
  id: Uuid,
  name: Text(200),
  weeklyRequiredMinutes: Type.Optional(Nullable(Minutes)),
});

/** A chat user id as a member carries it: 1 to 32 digits. */
export const MEMBER_CHAT_USER_ID_PATTERN = '^[0-9]{1,32}$';

export const MemberSchema = Strict({
  userId: Text(255),
  permissions: Type.Array(StringEnum(PERMISSIONS), { uniqueItems: true }),
  /** The member's chat user id: a chat bot's console sign-in link finds the member by it (unique in the workspace). */
  chatUserId: Type.Optional(Nullable(Type.String({ pattern: MEMBER_CHAT_USER_ID_PATTERN }))),
});

export const StaffSchema = Strict({
  id: Uuid,
  displayName: Text(200),
  gameUserId: ExternalId,
  gameUsername: Text(200),
  chatUserId: Type.Optional(Nullable(ExternalId)),
  departmentId: Type.Optional(Nullable(Uuid)),
  rank: Type.Optional(Nullable(Text(60))),
  status: StringEnum(STAFF_STATUSES),
  weeklyRequiredMinutes: Type.Optional(Nullable(Minutes)),
});

export const NoticeSchema = Strict({
  id: Uuid,
  staffId: Uuid,
  startsAt: DateTime,
  endsAt: DateTime,
  reason: Text(1000),
  status: StringEnum(NOTICE_STATUSES),
});

export const KeySchema = Strict({
  id: Uuid,
  environment: StringEnum(ENVIRONMENTS),
  scopes: Type.Array(StringEnum(SCOPES), { uniqueItems: true }),
  /** Imports an existing key; its format and prefix are checked in document.ts. */
  secret: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  /** Left out: false for a new key, unchanged for an existing one (a `keys revoke` stays). */
  revoked: Type.Optional(Type.Boolean()),
  /** Left out: none for a new key, unchanged for an existing one (a `keys rotate` grace period stays). */
  expiresAt: Type.Optional(Nullable(DateTime)),
});

export const ApplicationSchema = Strict({
  id: Uuid,
  name: Text(200),
  approved: Type.Boolean(),
  allowedUniverseIds: Type.Array(ExternalId, { uniqueItems: true }),
  features: FlagMap(FEATURES),
  keys: Type.Array(KeySchema),
});

export const ApplicantSchema = Strict({
  gameUserId: ExternalId,
  gameUsername: Text(200),
  displayName: Text(200),
  chatUserId: Type.Optional(Nullable(ExternalId)),
});

export const SubmissionSchema = Strict({
  id: Uuid,
  status: StringEnum(SUBMISSION_STATUSES),
  score: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 100 }))),
  reviewerNotes: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  applicant: ApplicantSchema,
  answers: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  createdAt: Type.Optional(DateTime),
  /** A form of the same workspace; its answers are then stored with the form's labels. */
  formId: Type.Optional(Uuid),
});

/** An application form (docs/OPERATING.md, "Provisioning"); the rules between a question's fields are checked in document.ts. */
export const FormSchema = Strict({
  id: Uuid,
  name: Text(200),
  slug: Type.String({ pattern: SLUG_PATTERN, maxLength: 64 }),
  status: StringEnum(FORM_STATUSES),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  departmentId: Type.Optional(Nullable(Uuid)),
  cooldownDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  questions: Type.Array(QuestionInputSchema, { minItems: 1, maxItems: MAX_QUESTIONS }),
  /** An assignable rank of the workspace, given to the staff profile an acceptance creates (checked in roblox.ts). */
  entryRank: Type.Optional(Nullable(Text(60))),
});

export const ShiftSchema = Strict({
  id: Uuid,
  staffId: Uuid,
  applicationId: Uuid,
  environment: StringEnum(ENVIRONMENTS),
  startedAt: DateTime,
  endedAt: DateTime,
  endReason: StringEnum(END_REASONS),
  universeId: ExternalId,
  placeId: ExternalId,
  serverId: Text(128),
});

/** A webhook endpoint (docs/WEBHOOKS.md, "Webhooks"); URL and secret are checked further in webhooks.ts. */
export const WebhookSchema = Strict({
  id: Uuid,
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  events: Type.Array(StringEnum([...WEBHOOK_EVENT_TYPES, ALL_EVENTS] as const), { minItems: 1, uniqueItems: true }),
  enabled: Type.Optional(Type.Boolean()),
  secret: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  /** `standard` (default): Standard Webhooks; `discord`: a Discord channel webhook, sent embeds (docs/DISCORD.md). */
  format: Type.Optional(StringEnum(['standard', 'discord'] as const)),
});

/** The workspace's Discord application (docs/DISCORD.md); the rules between workspaces are checked in discord.ts. */
export const DiscordSchema = Strict({
  applicationId: Type.String({ pattern: '^[0-9]{1,32}$' }),
  publicKey: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
  environment: Type.Optional(StringEnum(ENVIRONMENTS)),
});

/** Roblox group ids and role ids: 1 to 20 digits. */
export const ROBLOX_ID_PATTERN = '^[0-9]{1,20}$';

/** The workspace's Roblox group (docs/ROBLOX.md); the two secrets are kept for the gateway's use, never shown. */
export const RobloxSchema = Strict({
  groupId: Type.String({ pattern: ROBLOX_ID_PATTERN }),
  apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  webhookSecret: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

/** A group role as a rank (docs/ROBLOX.md); names and orders unique in the workspace (roblox.ts). */
export const RankSchema = Strict({
  name: Text(60),
  roleId: Type.Optional(Type.String({ pattern: ROBLOX_ID_PATTERN })),
  order: Type.Integer({ minimum: 1, maximum: 255 }),
  assignable: Type.Optional(Type.Boolean()),
});

export const WorkspaceSchema = Strict({
  id: Uuid,
  name: Text(200),
  slug: Type.String({ pattern: SLUG_PATTERN, maxLength: 64 }),
  timezone: Type.Optional(Text(64)),
  settings: Type.Optional(SettingsSchema),
  chat: Type.Optional(ChatSchema),
  departments: Type.Optional(Type.Array(DepartmentSchema)),
  members: Type.Optional(Type.Array(MemberSchema)),
  staff: Type.Optional(Type.Array(StaffSchema)),
  inactivityNotices: Type.Optional(Type.Array(NoticeSchema)),
  applications: Type.Optional(Type.Array(ApplicationSchema)),
  forms: Type.Optional(Type.Array(FormSchema)),
  submissions: Type.Optional(Type.Array(SubmissionSchema)),
  shifts: Type.Optional(Type.Array(ShiftSchema)),
  webhooks: Type.Optional(Type.Array(WebhookSchema)),
  discord: Type.Optional(DiscordSchema),
  roblox: Type.Optional(RobloxSchema),
  ranks: Type.Optional(Type.Array(RankSchema, { maxItems: 255 })),
});

export const ProvisioningDocumentSchema = Strict({
  workspaces: Type.Array(WorkspaceSchema),
});

export type ProvisioningDocument = Static<typeof ProvisioningDocumentSchema>;
export type WorkspaceDocument = Static<typeof WorkspaceSchema>;
export type ChatDocument = Static<typeof ChatSchema>;
export type DepartmentDocument = Static<typeof DepartmentSchema>;
export type MemberDocument = Static<typeof MemberSchema>;
export type StaffDocument = Static<typeof StaffSchema>;
export type NoticeDocument = Static<typeof NoticeSchema>;
export type ApplicationDocument = Static<typeof ApplicationSchema>;
export type KeyDocument = Static<typeof KeySchema>;
export type SubmissionDocument = Static<typeof SubmissionSchema>;
export type FormDocument = Static<typeof FormSchema>;
export type ShiftDocument = Static<typeof ShiftSchema>;
export type WebhookDocument = Static<typeof WebhookSchema>;
export type DiscordDocument = Static<typeof DiscordSchema>;
export type RobloxDocument = Static<typeof RobloxSchema>;
export type RankDocument = Static<typeof RankSchema>;
