import { optionalBody, requireJsonContentType } from '../../http/validation.ts';
import { envelope } from '../../http/envelope.ts';
import { requestContext, type WritePipeline } from '../../http/write-pipeline.ts';
import { errorResponses } from '../../http/openapi.ts';
import { apiKeyActor, chatContext, userActor, type RouteAuth } from '../../auth/route-auth.ts';
import type { RouteApp, RouteRequest } from '../../http/route-app.ts';
import type { NoticeDecisionService } from './decision-service.ts';
import {
  ApproveResponseSchema,
  CancelBodySchema,
  CancelResponseSchema,
  DecisionBodySchema,
  DenyResponseSchema,
  ListQuerySchema,
  ListResponseSchema,
  ManagerReadHeadersSchema,
  ManagerWriteHeadersSchema,
  NoticeParamsSchema,
  OwnListResponseSchema,
  RequestBodySchema,
  RequestResponseSchema,
  StaffReadHeadersSchema,
  StaffWriteHeadersSchema,
} from './schemas.ts';
import type { NoticeService } from './service.ts';

const STAFF_WRITE = { kind: 'apiKey', scope: 'staff:write', useCachedKey: true } as const satisfies RouteAuth;
const STAFF_READ = { kind: 'apiKey', scope: 'staff:read' } as const satisfies RouteAuth;
const USER = { kind: 'user' } as const satisfies RouteAuth;

const OWN =
  'The staff member is the acting chat user, identified as on `GET /v1/staff/me`: both chat headers are required ' +
  '(400), the guild must be the connected one (403 `guild_mismatch` / `chat_not_connected`), and a chat user with ' +
  'no staff profile is 404. Not gated by a feature. ';

const WRITE =
  ' Takes an `Idempotency-Key` (required), scoped to the caller: a replay returns the stored result with ' +
  '`Idempotent-Replayed: true`. The change, one command and one event are recorded in one transaction; the event ' +
  'is delivered to webhooks with this response\'s `data`, in the notice\'s environment.';

const MANAGERS =
  'Dashboard user token only; needs `notices.decide` (403 `permission_denied`). With `X-Service-Workspace-Id`, ' +
  'only that workspace is visible (the caller must be a member of it, else 403 `workspace_access_denied`). ';



export interface NoticeRoutesDeps {
  readonly service: NoticeService;
  readonly noticeDecisions: NoticeDecisionService;
  readonly writes: WritePipeline;
}

export function noticeRoutes({ service, noticeDecisions, writes }: NoticeRoutesDeps) {
  return async function register(app: RouteApp): Promise<void> {
    const tags = ['staff'];

    app.post(
      '/v1/staff/me/inactivity-notices',
      {
        config: { auth: STAFF_WRITE },
        preValidation: requireJsonContentType,
        schema: {
          operationId: 'requestInactivityNotice',
          summary: 'Ask for an inactivity notice (time off) as the acting staff member',
          description:
            OWN +
            'Scope `staff:write`. `Content-Type: application/json` is required (415). Records a `pending` notice in ' +
            'the key\'s environment. 400 `validation_failed`, `details.issues` naming `startsAt`, `endsAt` or ' +
            '`reason` (a rule on both dates names `endsAt`): `reason` empty or over 500 characters after trimming; ' +
            '`startsAt` more than 7 days before now; `endsAt` not after `startsAt` or not after now; longer than ' +
            'the workspace\'s `maxNoticeDays` × 24 h. Inactive staff: 403 `staff_inactive`. A `pending` or ' +
            '`approved` notice of the staff member in this environment overlapping it: 409 `notice_overlap` with ' +
            '`details.noticeId` (the one that starts first; also the answer to the loser of two racing requests). ' +
            'Checks in order: authentication, scope, chat headers, body and `Idempotency-Key`, replay, the guild, ' +
            'the body\'s rules, the staff member, `staff_inactive`, overlap.' +
            WRITE,
          tags,
          headers: StaffWriteHeadersSchema,
          body: RequestBodySchema,
          response: {
            200: RequestResponseSchema,
            ...errorResponses({
              403: ['guild_mismatch', 'chat_not_connected', 'staff_inactive'],
              404: ['not_found'],
              409: ['notice_overlap'],
            }),
          },
        },
      },
      writes({
        answer: 'meta',
        actor: apiKeyActor,
        input: (request) => ({ chat: chatContext(request), body: request.body, request: requestContext(request) }),
        operation: service.request,
      }),
    );

    app.get(
      '/v1/staff/me/inactivity-notices',
      {
        config: { auth: STAFF_READ },
        schema: {
          operationId: 'listMyInactivityNotices',
          summary: 'List the acting staff member\'s inactivity notices',
          description:
            OWN +
            'Scope `staff:read`. The notices of the key\'s environment, by `startsAt` descending then `id` ' +
            'descending, at most the 20 first.',
          tags,
          headers: StaffReadHeadersSchema,
          response: {
            200: OwnListResponseSchema,
            ...errorResponses({ 403: ['guild_mismatch', 'chat_not_connected'], 404: ['not_found'] }),
          },
        },
      },
      async (request) => envelope(request, { notices: await service.listMine(apiKeyActor(request), chatContext(request)) }),
    );

    app.post(
      '/v1/staff/me/inactivity-notices/:noticeId/cancel',
      {
        config: { auth: STAFF_WRITE },
        schema: {
          operationId: 'cancelInactivityNotice',
          summary: 'Cancel an inactivity notice, or come back early from one',
          description:
            OWN +
            'Scope `staff:write`; no body, or `{}`. Another staff member\'s notice, or one of another environment or ' +
            'workspace, is 404. A `pending` notice, or an `approved` one that has not started, becomes ' +
            '`cancelled`. An `approved` notice under way stays `approved` and ends now: the staff member is back ' +
            'early, and the part taken still counts. An ended approved notice, a `denied` or a `cancelled` one: 409 ' +
            '`notice_finalized`. The event is `staff.inactivity_notice.cancelled` in both cases.' +
            WRITE,
          tags,
          headers: StaffWriteHeadersSchema,
          params: NoticeParamsSchema,
          body: CancelBodySchema,
          response: {
            200: CancelResponseSchema,
            ...errorResponses({
              403: ['guild_mismatch', 'chat_not_connected'],
              404: ['not_found'],
              409: ['notice_finalized', 'invalid_state_transition'],
            }),
          },
        },
      },
      writes({
        answer: 'meta',
        actor: apiKeyActor,
        input: (request) => ({ chat: chatContext(request), noticeId: request.params.noticeId, request: requestContext(request) }),
        operation: service.cancel,
      }),
    );

    app.get(
      '/v1/staff/inactivity-notices',
      {
        config: { auth: USER },
        schema: {
          operationId: 'listInactivityNotices',
          summary: 'List inactivity notices for managers',
          description:
            MANAGERS +
            'Notices in the given statuses (default `pending`) and environment (default `live`), optionally of one ' +
            'staff member, ordered by `startsAt` then `id`, both ascending; each with its staff member and ' +
            '`decidedBy`. Keyset pagination: pass `nextCursor` back as `cursorStartsAt` and `cursorId` (both or ' +
            'neither, else 400). A malformed `status`, `staffId`, `environment`, `limit` or cursor is 400 ' +
            '`validation_failed`; a `staffId` that names no staff member gives an empty page.',
          tags,
          headers: ManagerReadHeadersSchema,
          querystring: ListQuerySchema,
          response: { 200: ListResponseSchema, ...errorResponses({ 403: ['permission_denied'] }) },
        },
      },
      async (request) => envelope(request, await noticeDecisions.list(userActor(request), request.query)),
    );

    const decision = (operation: 'approve' | 'deny') => ({
      description:
        MANAGERS +
        'A notice of a workspace the caller is not a member of (or not the selected one), an unknown one, or a ' +
        '`noticeId` that is not a uuid is 404 `not_found`. From `pending` only, else 409 ' +
        '`invalid_state_transition` (also the answer to the loser of an approval racing a denial). `note`: 1 to ' +
        '1000 characters after trimming, recorded as the notice\'s `decisionNote`.' +
        (operation === 'approve'
          ? ' Approving while another `approved` notice of the staff member in that environment overlaps it: 409 ' +
            '`notice_overlap` (`details.noticeId`).'
          : '') +
        WRITE,
      tags,
      headers: ManagerWriteHeadersSchema,
      params: NoticeParamsSchema,
      body: DecisionBodySchema,
    });
    const decisionErrors = (operation: 'approve' | 'deny') =>
      errorResponses({
        403: ['permission_denied'],
        404: ['not_found'],
        409: [...(operation === 'approve' ? (['notice_overlap'] as const) : []), 'invalid_state_transition'],
      });
    const decisionInput = (request: RouteRequest<ReturnType<typeof decision>>) => ({
      noticeId: request.params.noticeId,
      body: optionalBody(request.body),
      request: requestContext(request),
    });

    app.post(
      '/v1/staff/inactivity-notices/:noticeId/approve',
      {
        config: { auth: USER },
        schema: {
          ...decision('approve'),
          operationId: 'approveInactivityNotice',
          summary: 'Approve a pending inactivity notice',
          response: { 200: ApproveResponseSchema, ...decisionErrors('approve') },
        },
      },
      writes({ answer: 'meta', actor: userActor, input: decisionInput, operation: noticeDecisions.approve }),
    );

    app.post(
      '/v1/staff/inactivity-notices/:noticeId/deny',
      {
        config: { auth: USER },
        schema: {
          ...decision('deny'),
          operationId: 'denyInactivityNotice',
          summary: 'Deny a pending inactivity notice',
          response: { 200: DenyResponseSchema, ...decisionErrors('deny') },
        },
      },
      writes({ answer: 'meta', actor: userActor, input: decisionInput, operation: noticeDecisions.deny }),
    );
  };
}
