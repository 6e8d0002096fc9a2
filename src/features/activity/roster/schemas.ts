import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { envelopeSchema } from '../../../http/envelope.ts';
import { UuidText } from '../../../http/validation.ts';
import { UUID_PATTERN } from '../../../shared/ids.ts';
import {
  CompletedShiftsSchema,
  EnvironmentQuery,
  Instant,
  Minutes,
  PeriodSchema,
  ReaderHeadersSchema,
  TotalMinutesSchema,
  TotalSecondsSchema,
} from '../reports/schemas.ts';
import { END_REASONS, StringEnum } from '../shifts/schemas.ts';
import { RankChangeSchema } from '../../ranks/schemas.ts';
import * as examples from './examples.ts';

export const DEFAULT_ROSTER_LIMIT = 50;
export const MAX_ROSTER_LIMIT = 100;
export const ROSTER_STATUSES = ['active', 'inactive', 'all'] as const;
export type RosterStatus = (typeof ROSTER_STATUSES)[number];

export const RosterHeadersSchema = ReaderHeadersSchema;

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

export const RosterQuerySchema = Type.Object({
  status: Type.Optional(
    Type.Union(
      ROSTER_STATUSES.map((status) => Type.Literal(status)),
      { description: '`active` (default), `inactive` or `all`; anything else is 400.', examples: ['active'] },
    ),
  ),
  departmentId: Type.Optional(
    UuidText({
      pattern: UUID_PATTERN,
      description: 'Only staff of this department (a uuid, else 400; one of no department here gives an empty page).',
      examples: [examples.DEPARTMENT_ID],
    }),
  ),
  rank: Type.Optional(
    Type.String({ maxLength: 200, description: 'Only staff holding exactly this rank (compared as is).', examples: ['Moderator'] }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ROSTER_LIMIT,
      default: DEFAULT_ROSTER_LIMIT,
      description: 'Staff per page, an integer from 1 to 100 (anything else is 400). Default 50.',
      examples: [DEFAULT_ROSTER_LIMIT],
    }),
  ),
  cursorDisplayName: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'From `nextCursor` of the previous page; requires `cursorId` (400 alone).',
      examples: ['Alice'],
    }),
  ),
  cursorId: Type.Optional(
    UuidText({
      pattern: UUID_PATTERN,
      description: 'From `nextCursor` of the previous page (a uuid, else 400); requires `cursorDisplayName`.',
      examples: [examples.STAFF_ID],
    }),
  ),
  environment: EnvironmentQuery,
});
export type RosterQuery = Static<typeof RosterQuerySchema>;

export const StaffPageParamsSchema = Type.Object({
  staffId: UuidText({
    description: 'Staff member id (uuid, in any case). Any other value names no staff member (404).',
    examples: [examples.STAFF_ID],
  }),
});

export const StaffPageQuerySchema = Type.Object({ environment: EnvironmentQuery });

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

const ProgressSchema = Type.Number({
  minimum: 0,
  description:
    '`totalMinutes` / `requiredMinutes` × 100, rounded half up to two decimals, not capped; 100 when the ' +
    'requirement is 0.',
});

export const WeekSchema = Type.Object(
  {
    totalMinutes: TotalMinutesSchema,
    requiredMinutes: Minutes(
      'The week\'s requirement (staff override, else department, else workspace, else 0) less what approved ' +
        'inactivity notices of the environment waive, as the summary\'s `weeklyRequiredMinutes`.',
    ),
    progressPercent: ProgressSchema,
  },
  {
    description:
      'The current week (Monday 00:00 in the workspace time zone) exactly as the leaderboard\'s entry and the ' +
      'activity summary compute it.',
  },
);

/**
 * A schema that also admits null, as one JSON Schema `type` list: the response serializer writes it by the value's
 * type, where a union (`anyOf`) would validate every value against each branch to choose one.
 */
function Nullable<T extends TSchema>(schema: T, description: string) {
  const type: unknown = schema.type;
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'], description });
}

export const RosterItemSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  displayName: Type.String(),
  gameUserId: Type.String(),
  gameUsername: Type.String(),
  chatUserId: Nullable(Type.String(), 'The staff member\'s chat user id; null when none.'),
  departmentId: Nullable(Type.String({ format: 'uuid' }), 'Null without a department.'),
  rank: Nullable(Type.String(), 'Null without a rank.'),
  status: StringEnum(['active', 'inactive'], '`active` or `inactive`.'),
  week: WeekSchema,
  activeShift: Nullable(
    Type.Object({ id: Type.String({ format: 'uuid' }), startedAt: Instant('Game-server start time.') }),
    'The shift under way in the environment read (the most recently started when several applications have one); ' +
      'null when the staff member is not on duty. A shift that timed out is not under way.',
  ),
});
export type RosterItem = Static<typeof RosterItemSchema>;

const RosterSchema = Type.Object({
  staff: Type.Array(RosterItemSchema),
  nextCursor: Nullable(
    Type.Object({
      cursorDisplayName: Type.String({ description: 'Pass as `cursorDisplayName`.' }),
      cursorId: Type.String({ format: 'uuid', description: 'Pass as `cursorId`.' }),
    }),
    'Cursor of the next page; null on the last.',
  ),
});
export type Roster = Static<typeof RosterSchema>;

const PeriodTotalsProperties = {
  period: PeriodSchema,
  totalSeconds: TotalSecondsSchema,
  totalMinutes: TotalMinutesSchema,
  completedShifts: CompletedShiftsSchema,
};

const RecentShiftSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  startedAt: Instant('Game-server start time.'),
  endedAt: Instant('Game-server end time.'),
  minutes: Minutes('Whole minutes of the shift, rounded down.'),
  endReason: Type.Union(
    END_REASONS.map((reason) => Type.Literal(reason)),
    { description: 'Why it ended; `heartbeat_timeout` when nothing was received for SHIFT_TIMEOUT_SECONDS.' },
  ),
});

const StaffNoticeSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    staffId: Type.String({ format: 'uuid' }),
    environment: Type.Union([Type.Literal('live'), Type.Literal('test')]),
    startsAt: Instant('Start of the time off.'),
    endsAt: Instant('End (exclusive) of the time off.'),
    status: Type.Union(['pending', 'approved', 'denied', 'cancelled'].map((status) => Type.Literal(status))),
    createdAt: Instant('When it was asked for (a provisioned one: when first written).'),
    decidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When it was approved or denied; null otherwise.',
    }),
  },
  { description: 'An inactivity notice without its reason and decision note, which this read never shows.' },
);

const StaffPageSchema = Type.Object({
  staff: RosterItemSchema,
  week: Type.Object(
    { ...PeriodTotalsProperties, requiredMinutes: WeekSchema.properties.requiredMinutes, progressPercent: ProgressSchema },
    { description: 'The current week, as the per-staff aggregates give it, with its requirement and progress.' },
  ),
  month: Type.Object(PeriodTotalsProperties, { description: 'The current month, as the per-staff aggregates give it.' }),
  weeks: Type.Array(
    Type.Object({
      start: Instant('Monday 00:00 of the week in the workspace time zone.'),
      totalMinutes: TotalMinutesSchema,
      requiredMinutes: WeekSchema.properties.requiredMinutes,
    }),
    { minItems: 8, maxItems: 8, description: 'The last 8 weeks, oldest first, the current one last.' },
  ),
  recentShifts: Type.Array(RecentShiftSchema, {
    maxItems: 20,
    description: 'The last 20 completed shifts of the environment read, by `startedAt`, newest first.',
  }),
  notices: Type.Array(StaffNoticeSchema, {
    maxItems: 10,
    description: 'The last 10 inactivity notices of the environment read, by `startsAt`, newest first.',
  }),
  rankChanges: Type.Array(RankChangeSchema, {
    maxItems: 10,
    description: 'The last 10 rank changes of the staff member, newest first; empty when the workspace has none.',
  }),
});
export type StaffPage = Static<typeof StaffPageSchema>;

export const RosterResponseSchema = {
  ...envelopeSchema(RosterSchema),
  description: 'One page of the roster.',
  examples: [examples.rosterResponseExample],
};

export const StaffPageResponseSchema = {
  ...envelopeSchema(StaffPageSchema),
  description: 'The staff member\'s page.',
  examples: [examples.staffPageResponseExample],
};
