import { envelope } from '../../../http/envelope.ts';
import { errorResponses } from '../../../http/openapi.ts';
import { apiKeyActor, asApiKeyActor, type CachedKeyRead, type RouteAuth } from '../../../auth/route-auth.ts';
import type { RouteApp } from '../../../http/route-app.ts';
import { readerAudience } from './audience.ts';
import {
  ActivitySummaryResponseSchema,
  LeaderboardQuerySchema,
  LeaderboardResponseSchema,
  PeriodQuerySchema,
  ReaderHeadersSchema,
  ReportHeadersSchema,
  StaffActivityParamsSchema,
  StaffActivityResponseSchema,
  SummaryHeadersSchema,
} from './schemas.ts';
import type { ReportService } from './service.ts';

const READ: RouteAuth = { kind: 'apiKey', scope: 'activity:read', feature: 'activity' };
/** The chat bot's hot reads: a key verified within the last minute is checked by the read's first statement. */
const CACHED_KEY_READ: RouteAuth = { ...READ, useCachedKey: true };
/** The leaderboard is also the console's: a member's dashboard token reads it too. */
const LEADERBOARD_READ: RouteAuth = { kind: 'apiKey', scope: 'activity:read', feature: 'activity', useCachedKey: true, orDashboardToken: true };

/** How a member's dashboard token reads (the leaderboard and the active list). */
export const DASHBOARD_READ_NOTE =
  'A dashboard token of any member of the workspace is accepted too (not gated by an application\'s features; a ' +
  'caller who is a member of no workspace is 403 `workspace_access_denied`): it reads the workspace named by ' +
  '`X-Service-Workspace-Id` (required when the caller is a member of several, 400), in the environment of the ' +
  '`environment` query parameter (`live` by default).';

const COMMON_NOTE =
  'Scope `activity:read`, feature `activity`. Only the calling key\'s workspace and environment are seen (test ' +
  'keys see test shifts only). Periods are half-open `[start, end)` in the workspace time zone (UTC by default). ' +
  'A completed shift counts when it overlaps the period (a zero-length one when it starts inside it) and its time ' +
  'is clipped to the period; an active shift that timed out (nothing received for more than SHIFT_TIMEOUT_SECONDS) ' +
  'counts as the completed shift it is, ending at its `lastHeartbeatAt`. Live active shifts are reported, never ' +
  'added to the totals. Seconds are the floor of the summed clipped milliseconds; minutes the floor of those ' +
  'seconds / 60.';

const PERIOD_NOTE =
  '`period` is `week` (default; also for any unrecognized value) or `month`; `start` and `end` together give a ' +
  'custom range and override `period`. One without the other, a malformed date-time, `end` not after `start`, or ' +
  'a range over 366 × 24 hours is 400.';

export interface ReportRouteDeps {
  readonly service: ReportService;
  readonly reads: CachedKeyRead;
}

export function reportRoutes({ service, reads }: ReportRouteDeps) {
  return async function register(app: RouteApp): Promise<void> {
    app.get(
      '/v1/activity/me/summary',
      {
        config: { auth: CACHED_KEY_READ },
        schema: {
          operationId: 'getActivitySummary',
          summary: 'Activity summary of the invoking chat user',
          description:
            'Completed minutes today, this week, last week and this month for the staff member behind ' +
            '`X-Acting-Chat-User-Id`, with this week\'s requirement and progress. Both chat headers are required ' +
            '(400); the guild must be the workspace\'s connected one (403 `guild_mismatch`, or `chat_not_connected`); ' +
            'a chat user with no staff profile is 404. Inactive staff get their summary too. ' +
            '`weeklyRequiredMinutes` is the weekly requirement (staff override, else department, else workspace ' +
            'setting, else 0) less what approved inactivity notices overlapping the week waive: requirement × ' +
            'overlap / week length, floored, with overlapping notices counted once. `inactivityEffect` names the ' +
            'approved notice overlapping the week most (then the earliest) and carries the waiver of all of them; ' +
            'pending and denied notices are ignored. `progressPercent` = `currentWeekMinutes` / ' +
            '`weeklyRequiredMinutes` × 100 (two decimals, half up, not capped; 100 when the requirement is 0). ' +
            '`activeShift` is the staff member\'s live active shift in this environment (the most recently started ' +
            `if several applications have one), else null. ${COMMON_NOTE}`,
          tags: ['activity'],
          headers: SummaryHeadersSchema,
          response: {
            200: ActivitySummaryResponseSchema,
            ...errorResponses({ 403: ['guild_mismatch', 'chat_not_connected'], 404: ['not_found'] }),
          },
        },
      },
      async (request) => {
        const chat = {
          guildId: request.headers['x-chat-guild-id'],
          actingChatUserId: request.headers['x-acting-chat-user-id'],
        };
        const data = await reads(request, (actor) => service.summary(asApiKeyActor(actor), chat));
        return envelope(request, data);
      },
    );

    app.get(
      '/v1/activity/staff/:gameUserId',
      {
        config: { auth: READ },
        schema: {
          operationId: 'getStaffActivity',
          summary: 'Activity aggregates of one staff member',
          description:
            'Totals of the staff member of the key\'s workspace with this `gameUserId` (any status) over the ' +
            `period; a game user id with no staff member there is 404. ${PERIOD_NOTE} The period is validated ` +
            'before the staff member is looked up. `activeShift` is the live active shift in this environment, ' +
            `else null. Answers with \`data\` only (no \`meta\`). ${COMMON_NOTE}`,
          tags: ['activity'],
          headers: ReportHeadersSchema,
          params: StaffActivityParamsSchema,
          querystring: PeriodQuerySchema,
          response: { 200: StaffActivityResponseSchema, ...errorResponses({ 404: ['not_found'] }) },
        },
      },
      async (request) => {
        const data = await service.staffActivity(apiKeyActor(request), request.params.gameUserId, request.query);
        return { data };
      },
    );

    app.get(
      '/v1/activity/leaderboard',
      {
        config: { auth: LEADERBOARD_READ },
        schema: {
          operationId: 'getActivityLeaderboard',
          summary: 'Staff ranked by activity',
          description:
            'Every staff member of the key\'s workspace with status `active` (plus `inactive` with ' +
            '`includeInactive=true` or `1`), zero totals included, ordered by `totalSeconds` descending then ' +
            '`staffId` ascending. `position` is absolute (1-based) and continues on later pages; with ' +
            '`departmentId` only that department is listed and positions count within it (a well-formed id of no ' +
            'department of this workspace gives an empty page). Pages: pass `nextCursor` back as ' +
            '`cursorTotalSeconds` and `cursorStaffId` (both or neither, else 400); `nextCursor` is null on the last ' +
            'page. A cursor is a place in the order, so entries are neither repeated nor skipped while totals stay ' +
            'unchanged. `limit` is an integer from 1 to 100 (default 25), else 400. `progressPercent` compares the ' +
            'period minutes with the staff member\'s requirement for the period (weekly × calendar days / 7 for a ' +
            'week or month, weekly × range / 7 days for a custom range) less what approved notices waive (pro rata ' +
            'to their overlap with the period, floored). Rankings are computed once and reused until a stop, a new ' +
            'staff profile, provisioning (on any gateway instance) or a shift timing out changes them, so every ' +
            `page is exactly what a fresh computation would give. ${PERIOD_NOTE} ${COMMON_NOTE} ${DASHBOARD_READ_NOTE}`,
          tags: ['activity'],
          headers: ReaderHeadersSchema,
          querystring: LeaderboardQuerySchema,
          response: { 200: LeaderboardResponseSchema },
        },
      },
      async (request) =>
        envelope(
          request,
          await reads(request, (actor) => service.leaderboard(readerAudience(actor, request.query.environment), request.query)),
        ),
    );
  };
}
