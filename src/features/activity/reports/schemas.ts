import { Type, type Static } from '@sinclair/typebox';
import { dataSchema, envelopeSchema } from '../../../http/envelope.ts';
import { UuidText } from '../../../http/validation.ts';
import { UUID_PATTERN } from '../../../shared/ids.ts';
import { CorrelationHeadersSchema, CorrelationIdHeader } from '../../../http/headers.ts';
import { ChatHeadersSchema } from '../../staff/schemas.ts';
import * as examples from './examples.ts';

export const DEFAULT_LEADERBOARD_LIMIT = 25;
export const MAX_LEADERBOARD_LIMIT = 100;

export const Instant = (description: string) => Type.String({ format: 'date-time', description });
export const Minutes = (description: string) => Type.Integer({ minimum: 0, description });


// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

export const SummaryHeadersSchema = Type.Object({
  ...ChatHeadersSchema.properties,
  'x-correlation-id': CorrelationIdHeader,
});

export const ReportHeadersSchema = CorrelationHeadersSchema;

/** The environment a member's dashboard token reads; an API key reads its own (docs/API.md, "Staff in the console"). */
export const EnvironmentQuery = Type.Optional(
  Type.Union([Type.Literal('live'), Type.Literal('test')], {
    description:
      'With a dashboard token: the environment read, `live` (default) or `test` (anything else is 400). With an API ' +
      'key the key\'s own environment is read and this parameter is ignored.',
    examples: ['live'],
  }),
);

/** Headers of a read that takes an API key or a member's dashboard token. */
export const ReaderHeadersSchema = Type.Object({
  'x-correlation-id': CorrelationIdHeader,
  'x-service-workspace-id': Type.Optional(
    UuidText({
      pattern: UUID_PATTERN,
      description:
        'With a dashboard token: the workspace read (a uuid), never authorization: the caller must be a member of ' +
        'it (403 `workspace_access_denied`). Required when the caller is a member of several workspaces (400), ' +
        'else their only workspace is read. Ignored with an API key.',
      examples: [examples.WORKSPACE_ID],
    }),
  ),
});

/** The known periods; the service reads any other value as `week`, so the schema admits any text. */
export const PERIODS = ['week', 'month'] as const;

const periodProperties = {
  period: Type.Optional(
    Type.Unsafe<(typeof PERIODS)[number] | (string & Record<never, never>)>({
      anyOf: [
        { type: 'string', enum: [...PERIODS] },
        { type: 'string', description: 'Any other value is not rejected: it means `week`.' },
      ],
      description:
        '`week` (default: Monday 00:00 to the next Monday 00:00 in the workspace time zone) or `month` (the 1st ' +
        '00:00 to the next 1st). Any other value is accepted and means `week`. Ignored when `start` and `end` are ' +
        'sent.',
      examples: ['month'],
    }),
  ),
  start: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'Custom range start, an ISO 8601 date-time with offset (encode `+` as `%2B`; seconds may be left out). ' +
        'Requires `end`; together they override `period`. Malformed: 400.',
      examples: ['2026-03-01T00:00:00Z'],
    }),
  ),
  end: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'Custom range end (exclusive), an ISO 8601 date-time with offset. Requires `start`; must be later than it ' +
        'and at most 366 × 24 hours after it (400).',
      examples: ['2026-03-08T00:00:00Z'],
    }),
  ),
};

export const PeriodQuerySchema = Type.Object(periodProperties);
export type PeriodQueryParams = Static<typeof PeriodQuerySchema>;

export const StaffActivityParamsSchema = Type.Object({
  gameUserId: Type.String({
    minLength: 1,
    description: 'Game user id of a staff member of the key\'s workspace (404 when there is none).',
    examples: ['1001'],
  }),
});

export const LeaderboardQuerySchema = Type.Object({
  ...periodProperties,
  environment: EnvironmentQuery,
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LEADERBOARD_LIMIT,
      default: DEFAULT_LEADERBOARD_LIMIT,
      description: 'Entries per page, an integer from 1 to 100 (anything else is 400). Default 25.',
      examples: [25],
    }),
  ),
  cursorTotalSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'From `nextCursor` of the previous page; requires `cursorStaffId` (400 alone).',
      examples: [5400],
    }),
  ),
  cursorStaffId: Type.Optional(
    UuidText({
      pattern: UUID_PATTERN,
      description: 'From `nextCursor` of the previous page (a uuid, else 400); requires `cursorTotalSeconds`.',
      examples: [examples.STAFF_ID],
    }),
  ),
  departmentId: Type.Optional(
    UuidText({
      pattern: UUID_PATTERN,
      description:
        'Only staff of this department (a uuid, else 400); positions count within the filtered list. A department ' +
        'that does not exist in the workspace yields an empty page.',
      examples: [examples.DEPARTMENT_ID],
    }),
  ),
  includeInactive: Type.Optional(
    Type.Unsafe<boolean | '1' | '0' | (string & Record<never, never>)>({
      anyOf: [
        { type: 'boolean' },
        { type: 'string', enum: ['1', '0'] },
        { type: 'string', description: 'Any other value is not rejected: it means false.' },
      ],
      description:
        '`true` or `1` also lists inactive staff; `false`, `0`, no value, or any other value does not (other values ' +
        'are accepted, not rejected).',
      examples: [true],
    }),
  ),
});
export type LeaderboardQuery = Static<typeof LeaderboardQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------------

export const ReportActiveShiftSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    startedAt: Instant('Game-server start time.'),
    lastHeartbeatAt: Instant('Latest game-server heartbeat time.'),
    elapsedSeconds: Type.Integer({
      minimum: 0,
      description: 'Whole seconds from `startedAt` to the server clock now. Never part of the completed totals.',
    }),
    universeId: Type.String(),
    placeId: Type.String(),
    serverId: Type.String(),
  },
  {
    description:
      'The staff member\'s live active shift in the key\'s environment (the most recently started one if several ' +
      'applications have one).',
  },
);
export type ReportActiveShift = Static<typeof ReportActiveShiftSchema>;

const NullableActiveShift = Type.Union([ReportActiveShiftSchema, Type.Null()]);

export const InactivityEffectSchema = Type.Object(
  {
    noticeId: Type.String({ format: 'uuid' }),
    startsAt: Instant('Start of the notice (not clipped to the week).'),
    endsAt: Instant('End of the notice (not clipped to the week).'),
    reason: Type.String(),
    waivedMinutes: Minutes(
      'Whole minutes waived from this week\'s requirement by every approved notice overlapping the week together ' +
        '(their union, counted once): requirement × overlap / week length, rounded down.',
    ),
  },
  {
    description:
      'The approved inactivity notice overlapping the current week; with several, the one overlapping it most ' +
      '(then the earliest), while `waivedMinutes` covers all of them.',
  },
);
export type InactivityEffect = Static<typeof InactivityEffectSchema>;

export const ActivitySummarySchema = Type.Object({
  todayMinutes: Minutes('Completed minutes of the local calendar day.'),
  currentWeekMinutes: Minutes('Completed minutes of the current week (Monday 00:00 local).'),
  previousWeekMinutes: Minutes('Completed minutes of the previous week.'),
  currentMonthMinutes: Minutes('Completed minutes of the current month.'),
  weeklyRequiredMinutes: Minutes(
    'This week\'s requirement (staff override, else department, else workspace, else 0) less the minutes ' +
      'waived by approved inactivity notices.',
  ),
  progressPercent: Type.Number({
    minimum: 0,
    description:
      '`currentWeekMinutes` / `weeklyRequiredMinutes` × 100, rounded half up to two decimals, not capped; 100 ' +
      'when the requirement is 0.',
  }),
  activeShift: NullableActiveShift,
  inactivityEffect: Type.Union([InactivityEffectSchema, Type.Null()]),
  timezone: Type.String({ description: 'Workspace time zone the periods are computed in (default UTC).' }),
  currentWeekStart: Instant('Start of the current week.'),
  currentWeekEnd: Instant('End (exclusive) of the current week: the next Monday 00:00.'),
  currentMonthStart: Instant('Start of the current month.'),
  currentMonthEnd: Instant('End (exclusive) of the current month: the next 1st 00:00.'),
});
export type ActivitySummary = Static<typeof ActivitySummarySchema>;
export const ActivitySummaryResponseSchema = {
  ...envelopeSchema(ActivitySummarySchema),
  description: 'The activity summary of the invoking staff member.',
  examples: [examples.summaryResponseExample],
};

export const PeriodSchema = Type.Object({
  start: Instant('Start of the period (inclusive).'),
  end: Instant('End of the period (exclusive).'),
  timezone: Type.String({ description: 'Workspace time zone.' }),
});

export const TotalSecondsSchema = Type.Integer({
  minimum: 0,
  description: 'Completed shifts clipped to the period: floor of the summed clipped milliseconds / 1000.',
});
export const TotalMinutesSchema = Minutes('`totalSeconds` in whole minutes, rounded down.');
export const CompletedShiftsSchema = Type.Integer({ minimum: 0, description: 'Completed shifts overlapping the period.' });

export const StaffActivitySchema = Type.Object({
  staff: Type.Object({ id: Type.String({ format: 'uuid' }), displayName: Type.String(), gameUserId: Type.String() }),
  period: PeriodSchema,
  totalSeconds: TotalSecondsSchema,
  totalMinutes: TotalMinutesSchema,
  completedShifts: CompletedShiftsSchema,
  activeShift: NullableActiveShift,
});
export type StaffActivity = Static<typeof StaffActivitySchema>;
export const StaffActivityResponseSchema = {
  ...dataSchema(StaffActivitySchema),
  description: 'Totals of the staff member over the period.',
  examples: [examples.staffActivityResponseExample],
};

export const LeaderboardEntrySchema = Type.Object({
  staffId: Type.String({ format: 'uuid' }),
  displayName: Type.String(),
  gameUserId: Type.String(),
  gameUsername: Type.String(),
  totalSeconds: TotalSecondsSchema,
  totalMinutes: TotalMinutesSchema,
  completedShifts: CompletedShiftsSchema,
  department: Type.String({ description: 'Department name; "" when unset.' }),
  rank: Type.String({ description: '"" when unset.' }),
  progressPercent: Type.Number({
    minimum: 0,
    description:
      'Period minutes / the period\'s requirement × 100, two decimals (half up), not capped; 100 when the ' +
      'requirement is 0. The requirement is the weekly one × calendar days / 7 (week, month) or × range / 7 days ' +
      '(custom), less what approved inactivity notices waive.',
  }),
  position: Type.Integer({
    minimum: 1,
    description: 'Absolute 1-based position in the whole (filtered) ranking, also on later pages.',
  }),
});
export type LeaderboardEntry = Static<typeof LeaderboardEntrySchema>;

const LeaderboardCursorSchema = Type.Object({
  cursorTotalSeconds: Type.Integer({ minimum: 0, description: 'Pass as `cursorTotalSeconds`.' }),
  cursorStaffId: Type.String({ format: 'uuid', description: 'Pass as `cursorStaffId`.' }),
});

export const LeaderboardSchema = Type.Object({
  entries: Type.Array(LeaderboardEntrySchema),
  nextCursor: Type.Union([LeaderboardCursorSchema, Type.Null()], {
    description: 'Cursor of the next page; null on the last page.',
  }),
  period: PeriodSchema,
});
export type Leaderboard = Static<typeof LeaderboardSchema>;
export const LeaderboardResponseSchema = {
  ...envelopeSchema(LeaderboardSchema),
  description: 'One page of the ranking.',
  examples: [examples.leaderboardResponseExample],
};
