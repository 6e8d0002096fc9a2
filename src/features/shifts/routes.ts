import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { JSON_MEDIA_TYPE } from '../../http/content-type.js';
import { errorBody, STATUS_BY_CODE } from '../../http/errors.js';
import {
  idempotentCall,
  sendIdempotent,
  sendOutcome,
  type Idempotency,
  type StoredResponse,
} from '../../http/idempotency.js';
import { errorResponses } from '../../http/openapi.js';
import { apiKeyActor, confirmedApiKeyActor, type RouteAuth } from '../../http/route-auth.js';
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
  type ActiveShiftsQuery,
  type HeartbeatBody,
  type StartShiftBody,
  type StopShiftBody,
} from './schemas.js';
import type { ShiftOutcome, ShiftService } from './service.js';

const WRITE = { kind: 'apiKey', scope: 'activity:write', feature: 'activity' } as const satisfies RouteAuth;
const READ: RouteAuth = { kind: 'apiKey', scope: 'activity:read', feature: 'activity' };

const IDEMPOTENCY_NOTE =
  'Takes an `Idempotency-Key` (required), scoped to the application and environment: a replay returns the ' +
  'stored result with `Idempotent-Replayed: true`.';
const OWNERSHIP_NOTE =
  'The shift must belong to the calling key\'s application and environment (else 404, as for an unknown id). ' +
  'A completed shift, or an active one nothing was received for in more than SHIFT_TIMEOUT_SECONDS (which is ' +
  'then completed with `endReason` `heartbeat_timeout`), is 409 `shift_not_active`.';

type ShiftParams = { shiftId: string };
type WriteHeaders = { 'idempotency-key'?: string };

/** Start needs a JSON body even though every body is checked later; this runs after authentication. */
async function requireJsonContentType(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type)) {
    throw new AppError('unsupported_media_type', 'Send the body as application/json (Content-Type is required).');
  }
}

function shiftOk<T>(shift: T): StoredResponse {
  return { status: 200, body: { data: { shift } } };
}

/** `{ data: { shift } }`, or a refusal that must commit (see ShiftOutcome), stored and answered like a thrown one. */
function shiftResponse<T>(request: FastifyRequest, outcome: ShiftOutcome<T>): StoredResponse {
  if (outcome.ok) return shiftOk(outcome.value);
  const { code, message, details } = outcome.error;
  return { status: STATUS_BY_CODE[code], body: errorBody(request.id, code, message, details) };
}

export interface ShiftRouteDeps {
  readonly service: ShiftService;
  readonly idempotency: Idempotency;
}

export function shiftRoutes({ service, idempotency }: ShiftRouteDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.post<{ Body: StartShiftBody; Headers: WriteHeaders }>(
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
          response: { 200: StartShiftResponseSchema, ...errorResponses(404, 409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const actor = apiKeyActor(request);
        return sendIdempotent(idempotency, request, reply, async (trx) => ({
          status: 200,
          body: { data: await service.start(trx, actor, request.body) },
        }));
      },
    );

    app.post<{ Params: ShiftParams; Body: HeartbeatBody; Headers: WriteHeaders }>(
      '/v1/activity/shifts/:shiftId/heartbeat',
      {
        config: { auth: { ...WRITE, reuseVerifiedKey: true } },
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
          response: { 200: HeartbeatResponseSchema, ...errorResponses(404, 409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const { shiftId } = request.params;
        // The common heartbeat is one statement, which also confirms a reused key (see Shortcut, RouteAuth).
        const predicted = service.predictHeartbeat(apiKeyActor(request), shiftId, request.body);
        if (predicted) {
          const condition = request.reusedKey?.credential;
          const { effect, params } = predicted;
          const response = shiftOk(predicted.shift);
          const row = shiftId;
          const shortcut = condition ? { effect, params, response, condition, row } : { effect, params, response, row };
          const outcome = await idempotency.apply(idempotentCall(request), shortcut);
          if (outcome) return sendOutcome(reply, outcome);
        }
        const actor = await confirmedApiKeyActor(request);
        return sendIdempotent(idempotency, request, reply, async (trx) =>
          shiftResponse(request, await service.heartbeat(trx, actor, shiftId, request.body)),
        );
      },
    );

    app.post<{ Params: ShiftParams; Body: StopShiftBody; Headers: WriteHeaders }>(
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
          response: { 200: StopShiftResponseSchema, ...errorResponses(404, 409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const actor = apiKeyActor(request);
        return sendIdempotent(idempotency, request, reply, async (trx) =>
          shiftResponse(request, await service.stop(trx, actor, request.params.shiftId, request.body)),
        );
      },
    );

    app.get<{ Querystring: ActiveShiftsQuery }>(
      '/v1/activity/shifts/active',
      {
        config: { auth: READ },
        schema: {
          operationId: 'listActiveShifts',
          summary: 'List active shifts',
          description:
            'Active shifts of the key\'s workspace (every application) in the key\'s environment, ordered by ' +
            '`startedAt` then `id`, both ascending; shifts that have timed out are left out. Scope `activity:read`, ' +
            'feature `activity`. Keyset pagination: pass `nextCursor` back as `cursorStartedAt` and `cursorId` ' +
            '(both or neither, else 400).',
          tags: ['activity'],
          headers: ShiftReadHeadersSchema,
          querystring: ActiveShiftsQuerySchema,
          response: { 200: ActiveShiftsResponseSchema },
        },
      },
      async (request) => ({ data: await service.listActive(apiKeyActor(request), request.query) }),
    );

    app.get<{ Params: ShiftParams }>(
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
          response: { 200: ShiftDetailResponseSchema, ...errorResponses(404) },
        },
      },
      async (request) => ({ data: { shift: await service.get(apiKeyActor(request), request.params.shiftId) } }),
    );
  };
}
