/** HTTP glue of the game-server batch calls (docs/API.md, "Game-server batch calls"). */
import type { WritePipeline } from '../../../http/write-pipeline.ts';
import { errorResponses } from '../../../http/openapi.ts';
import { apiKeyActor } from '../../../auth/route-auth.ts';
import type { RouteApp } from '../../../http/route-app.ts';
import {
  HeartbeatBatchBodySchema,
  HeartbeatBatchResponseSchema,
  MAX_BATCH_SHIFTS,
  ServerParamsSchema,
  ServerStopBodySchema,
  ServerStopResponseSchema,
} from './batch-schemas.ts';
import type { ShiftBatchService } from './batch-service.ts';
import { requireJsonContentType, WRITE } from './routes.ts';
import { ShiftWriteHeadersSchema } from './schemas.ts';

const BATCH_NOTE =
  'Scope `activity:write`, feature `activity`. Acts only on shifts of the calling key\'s application and ' +
  'environment (any other id is `not_found`). Takes an `Idempotency-Key` (required), scoped to the application ' +
  'and environment: a replay returns the stored result with `Idempotent-Replayed: true`. One request and one ' +
  'commit for the whole server, so a game server spends one request per interval, not one per player.';

export function shiftBatchRoutes(service: ShiftBatchService, writes: WritePipeline) {
  return async function register(app: RouteApp): Promise<void> {
    app.post(
      '/v1/activity/shifts/heartbeats',
      {
        config: { auth: WRITE },
        preValidation: requireJsonContentType,
        schema: {
          operationId: 'recordShiftHeartbeats',
          summary: 'Record one heartbeat for many shifts of a game server',
          description:
            `Applies to each listed shift (1 to ${MAX_BATCH_SHIFTS}) exactly what the single heartbeat applies, in ` +
            'one transaction, and answers with a result per shift in request order: the shift, or an error ' +
            '(`not_found`, `shift_not_active` — a shift that has timed out is completed then, `server_mismatch`, ' +
            '`validation_failed` for a `recordedAt` before that shift\'s `startedAt`). One failing shift changes ' +
            'nothing for the others. The whole request is refused (nothing written) for a malformed body, an ' +
            'empty, oversized or duplicated `shiftIds` (two spellings of one uuid count as one), or a ' +
            '`recordedAt` over 60 s ahead (400); `Content-Type: application/json` is required (415). ' +
            BATCH_NOTE,
          tags: ['activity'],
          headers: ShiftWriteHeadersSchema,
          body: HeartbeatBatchBodySchema,
          response: { 200: HeartbeatBatchResponseSchema },
        },
      },
      writes({ answer: 'data', actor: apiKeyActor, input: (request) => request.body, operation: service.heartbeats }),
    );

    app.post(
      '/v1/activity/servers/:serverId/stop',
      {
        config: { auth: WRITE },
        schema: {
          operationId: 'stopServerShifts',
          summary: 'Stop every active shift of a game server',
          description:
            'For a game server shutting down: stops every active shift of that server as the single stop would ' +
            '(`reason` defaults to `server_shutdown`), at `endedAt` (default: the server clock); a shift started ' +
            'after `endedAt` ends at its own `startedAt`. A shift that had already timed out is completed as ' +
            '`heartbeat_timeout` and not listed. Answers with the stopped shifts by `startedAt` then `id`, an ' +
            'empty list when none was active. The body is optional; when sent it must be application/json (415). ' +
            `\`endedAt\` over 60 s ahead is 400. ${BATCH_NOTE}`,
          tags: ['activity'],
          params: ServerParamsSchema,
          headers: ShiftWriteHeadersSchema,
          body: ServerStopBodySchema,
          response: {
            200: ServerStopResponseSchema,
            ...errorResponses({ 404: ['not_found'] }),
          },
        },
      },
      writes({
        answer: 'data',
        actor: apiKeyActor,
        input: (request) => ({ serverId: request.params.serverId, body: request.body }),
        operation: service.stopServer,
      }),
    );
  };
}
