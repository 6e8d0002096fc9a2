import { envelope } from '../../../http/envelope.ts';
import { errorResponses } from '../../../http/openapi.ts';
import { userActor, type RouteAuth } from '../../../auth/route-auth.ts';
import type { RouteApp } from '../../../http/route-app.ts';
import {
  RosterHeadersSchema,
  RosterQuerySchema,
  RosterResponseSchema,
  StaffPageParamsSchema,
  StaffPageQuerySchema,
  StaffPageResponseSchema,
} from './schemas.ts';
import type { RosterService } from './service.ts';

const MEMBER: RouteAuth = { kind: 'user' };

const ACCESS =
  'Dashboard token of any member of the workspace (no permission needed; not gated by an application\'s ' +
  'features). The workspace is the one named by `X-Service-Workspace-Id` (the caller must be a member of it, else ' +
  '403 `workspace_access_denied`), else the caller\'s only workspace: a caller who is a member of no workspace is ' +
  '403 `workspace_access_denied`, one who is a member of several and names none is 400. `environment` (`live` by ' +
  'default, or `test`) chooses whose activity is read. ';

const WEEK =
  'A week\'s figures are exactly the leaderboard\'s entry and the activity summary\'s for the same staff member: ' +
  'completed time (and timed-out shifts, ending at their last heartbeat) clipped to the week in the workspace time ' +
  'zone, in whole minutes; the requirement (staff override, else department, else workspace, else 0) less what the ' +
  'approved notices of the environment waive; the progress rounded half up to two decimals, 100 when nothing is ' +
  'required.';

export interface RosterRouteDeps {
  readonly service: RosterService;
}

export function rosterRoutes({ service }: RosterRouteDeps) {
  return async function register(app: RouteApp): Promise<void> {
    const tags = ['staff'];

    app.get(
      '/v1/staff',
      {
        config: { auth: MEMBER },
        schema: {
          operationId: 'listStaff',
          summary: 'The roster: staff with their week and the shift under way',
          description:
            ACCESS +
            'Staff of the workspace with `status` (`active` by default, `inactive`, or `all`), optionally only a ' +
            'department\'s (`departmentId`) or a rank\'s (`rank`, exact), ordered by `displayName` then `id`, both ' +
            'compared by Unicode code points (ids as lowercase text). Pages: pass `nextCursor` back as ' +
            '`cursorDisplayName` and `cursorId` (both or neither, else 400); a cursor is a place in that order, so ' +
            'staff are neither repeated nor skipped. `limit` is an integer from 1 to 100 (default 50), else 400; ' +
            'an unknown `status`, a malformed `departmentId`, `cursorId` or `environment` is 400. Each item carries ' +
            `its current \`week\` and its \`activeShift\` (the shift under way in the environment, else null). ${WEEK}`,
          tags,
          headers: RosterHeadersSchema,
          querystring: RosterQuerySchema,
          response: { 200: RosterResponseSchema },
        },
      },
      async (request) => envelope(request, await service.roster(userActor(request), request.query)),
    );

    app.get(
      '/v1/staff/:staffId',
      {
        config: { auth: MEMBER },
        schema: {
          operationId: 'getStaffMember',
          summary: 'A staff member\'s page: week, month, the last 8 weeks, recent shifts, time off, rank changes',
          description:
            ACCESS +
            'Any staff member of the workspace, inactive ones too; one of another workspace, or an unknown one, is ' +
            '404. `staff` is the roster\'s item; `week` and `month` the per-staff aggregates of the current week ' +
            '(with `requiredMinutes` and `progressPercent`) and month; `weeks` the last 8 weeks, oldest first, the ' +
            'current one last, each with its own requirement; `recentShifts` the last 20 completed shifts and ' +
            '`notices` the last 10 inactivity notices (never their reason or decision note), both of the ' +
            'environment, newest first; `rankChanges` the last 10 rank changes, newest first (empty when there are ' +
            `none). ${WEEK}`,
          tags,
          headers: RosterHeadersSchema,
          params: StaffPageParamsSchema,
          querystring: StaffPageQuerySchema,
          response: { 200: StaffPageResponseSchema, ...errorResponses({ 404: ['not_found'] }) },
        },
      },
      async (request) =>
        envelope(request, await service.staffPage(userActor(request), request.params.staffId, request.query.environment)),
    );
  };
}
