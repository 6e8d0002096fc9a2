import { requireJsonContentType } from '../../../http/validation.ts';
import type { WritePipeline } from '../../../http/write-pipeline.ts';
import { errorResponses } from '../../../http/openapi.ts';
import type { ErrorCodesByStatus } from '../../../http/openapi-responses.ts';
import { apiKeyActor, readerActor, type RouteAuth } from '../../../auth/route-auth.ts';
import type { RouteApp } from '../../../http/route-app.ts';
import { readerAudience } from '../reports/audience.ts';
import { DASHBOARD_READ_NOTE } from '../reports/routes.ts';
import { ReaderHeadersSchema } from '../reports/schemas.ts';
import {
  ActiveShiftsQuerySchema,
  ActiveShiftsResponseSchema,
  HeartbeatBodySchema,
  HeartbeatResponseSchema,
  ShiftDetailResponseSchema,
  ShiftParamsSchema,
  ShiftReadHeadersSchema,
  ShiftWriteHeadersSchema,
  StartShiftBodySchema,
  StartShiftResponseSchema,
  StopShiftBodySchema,
  StopShiftResponseSchema,
} from './schemas.ts';
import type { ShiftService } from './service.ts';

export { requireJsonContentType };

export const WRITE = { kind: 'apiKey', scope: 'activity:write', feature: 'activity', useCachedKey: true } as const satisfies RouteAuth;
const READ: RouteAuth = { kind: 'apiKey', scope: 'activity:read', feature: 'activity' };
/** The active list is also the console's "On duty": a member's dashboard token reads it too. */
const ACTIVE_LIST_READ: RouteAuth = { kind: 'apiKey', scope: 'activity:read', feature: 'activity', orDashboardToken: true };

const IDEMPOTENCY_NOTE =
  'Takes an `Idempotency-Key` (required), scoped to the application and environment: a replay returns the ' +
  'stored result with `Idempotent-Replayed: true`.';
const OWNERSHIP_NOTE =
  'The shift must belong to the calling key\'s application and environment (else 404, as for an unknown id). ' +
  'A completed shift, or an active one nothing was received for in more than SHIFT_TIMEOUT_SECONDS (which is ' +
  'then completed with `endReason` `heartbeat_timeout`), is 409 `shift_not_active`.';

/**
 * Besides the 400/401/403/429/500 every authenticated route documents and the write pipeline's 409/413/415/422
 * (see documentRoute).
 */
const WRITE_ERRORS = { 404: ['not_found'] } as const satisfies ErrorCodesByStatus;


export interface ShiftRouteDeps {
  readonly service: ShiftService;
  readonly writes: WritePipeline;
}

export function shiftRoutes({ service, writes }: ShiftRouteDeps) {
  return async function register(app: RouteApp): Promise<void> {
    app.post(
      '/v1/activity/shifts/start',
      {
        config: { auth: WRITE },
        preValidation: requireJsonContentType,
        schema: {
          operationId: 'startShift',
          summary: 'Start a shift (or get the active one)',
          description:
            'Starts a shift for the staff member of the key\'s workspace with this `gameUserId`. Scope ' +
            '`activity:write`, feature `activity`. `Content-Type: application/json` is required (415). Numeric ids ' +
            'are stored as decimal strings. The universe must be in the application\'s allowed list (an empty list ' +
            'denies all: 403 `universe_not_allowed`); unknown staff is 404, inactive staff 403 `staff_inactive`. ' +
            'When the application already has an active shift for the staff member in this environment, it is ' +
            'returned unchanged with `existing: true` (not a heartbeat); one that has timed out is completed ' +
            '(`heartbeat_timeout`, ending at its `lastHeartbeatAt`) and a new one starts. Concurrent starts yield ' +
            `one active shift. ${IDEMPOTENCY_NOTE}`,
          tags: ['activity'],
          headers: ShiftWriteHeadersSchema,
          body: StartShiftBodySchema,
          response: {
            200: StartShiftResponseSchema,
            ...errorResponses({
              ...WRITE_ERRORS,
              403: ['universe_not_allowed', 'staff_inactive'],
            }),
          },
        },
      },
      writes({ answer: 'data', actor: apiKeyActor, input: (request) => request.body, operation: service.start }),
    );

    app.post(
      '/v1/activity/shifts/:shiftId/heartbeat',
      {
        config: { auth: WRITE },
        schema: {
          operationId: 'recordShiftHeartbeat',
          summary: 'Record a heartbeat of an active shift',
          description:
            'Keeps the shift alive and moves `lastHeartbeatAt` to `recordedAt` (it never moves backwards). Scope ' +
            '`activity:write`, feature `activity`. The body is optional; when sent it must be application/json ' +
            '(415). A `serverId` differing from the shift\'s is 409 `server_mismatch`. ' +
            `${OWNERSHIP_NOTE} ${IDEMPOTENCY_NOTE}`,
          tags: ['activity'],
          params: ShiftParamsSchema,
          headers: ShiftWriteHeadersSchema,
          body: HeartbeatBodySchema,
          response: {
            200: HeartbeatResponseSchema,
            ...errorResponses({
              ...WRITE_ERRORS,
              409: ['shift_not_active', 'server_mismatch'],
            }),
          },
        },
      },
      writes({
        answer: 'data',
        actor: apiKeyActor,
        input: (request) => ({ shiftId: request.params.shiftId, body: request.body }),
        operation: service.heartbeat,
        known: service.knownHeartbeat,
      }),
    );

    app.post(
      '/v1/activity/shifts/:shiftId/stop',
      {
        config: { auth: WRITE },
        schema: {
          operationId: 'stopShift',
          summary: 'Stop an active shift',
          description:
            'Completes the shift at `endedAt` and reports its duration in whole seconds and whole minutes (both ' +
            'rounded down). Scope `activity:write`, feature `activity`. The body is optional; when sent it must be ' +
            `application/json (415). ${OWNERSHIP_NOTE} ${IDEMPOTENCY_NOTE}`,
          tags: ['activity'],
          params: ShiftParamsSchema,
          headers: ShiftWriteHeadersSchema,
          body: StopShiftBodySchema,
          response: {
            200: StopShiftResponseSchema,
            ...errorResponses({ ...WRITE_ERRORS, 409: ['shift_not_active'] }),
          },
        },
      },
      writes({
        answer: 'data',
        actor: apiKeyActor,
        input: (request) => ({ shiftId: request.params.shiftId, body: request.body }),
        operation: service.stop,
      }),
    );

    app.get(
      '/v1/activity/shifts/active',
      {
        config: { auth: ACTIVE_LIST_READ },
        schema: {
          operationId: 'listActiveShifts',
          summary: 'List active shifts',
          description:
            'Active shifts of the key\'s workspace (every application) in the key\'s environment, ordered by ' +
            '`startedAt` then `id`, both ascending; shifts that have timed out are left out. Scope `activity:read`, ' +
            'feature `activity`. Keyset pagination: pass `nextCursor` back as `cursorStartedAt` and `cursorId` ' +
            `(both or neither, else 400). ${DASHBOARD_READ_NOTE}`,
          tags: ['activity'],
          headers: ReaderHeadersSchema,
          querystring: ActiveShiftsQuerySchema,
          response: { 200: ActiveShiftsResponseSchema },
        },
      },
      async (request) => ({
        data: await service.listActive(readerAudience(readerActor(request), request.query.environment), request.query),
      }),
    );

    app.get(
      '/v1/activity/shifts/:shiftId',
      {
        config: { auth: READ },
        schema: {
          operationId: 'getShift',
          summary: 'Get one shift',
          description:
            'A shift of the key\'s workspace in the key\'s environment (else 404), e.g. for a game server ' +
            'recovering after a restart. Scope `activity:read`, feature `activity`. The timeout rule is applied ' +
            'first. While active it carries `elapsedSeconds`; once completed `endedAt`, `durationSeconds`, ' +
            '`minutes` and `endReason` instead.',
          tags: ['activity'],
          params: ShiftParamsSchema,
          headers: ShiftReadHeadersSchema,
          response: { 200: ShiftDetailResponseSchema, ...errorResponses({ 404: ['not_found'] }) },
        },
      },
      async (request) => ({ data: { shift: await service.get(apiKeyActor(request), request.params.shiftId) } }),
    );
  };
}
