import { envelope } from '../../http/envelope.ts';
import type { RouteApp } from '../../http/route-app.ts';
import { requestContext, type WritePipeline } from '../../http/write-pipeline.ts';
import { errorResponses } from '../../http/openapi.ts';
import { userActor, type RouteAuth } from '../../auth/route-auth.ts';
import { requireJsonContentType } from '../../http/validation.ts';
import { LIST_LIMIT, REASON_MAX } from './rules.ts';
import {
  ChangeBodySchema,
  ChangeResponseSchema,
  ListResponseSchema,
  ReadHeadersSchema,
  StaffParamsSchema,
  WriteHeadersSchema,
} from './schemas.ts';
import type { RankService } from './service.ts';

const USER = { kind: 'user' } as const satisfies RouteAuth;

const MEMBERS =
  'Dashboard user token only. With `X-Service-Workspace-Id`, only that workspace is visible (the caller must be a ' +
  'member of it, else 403 `workspace_access_denied`). A staff member of a workspace the caller is not a member of ' +
  '(or not the selected one), an unknown one, or a `staffId` that is not a uuid is 404 `not_found`. ';

export interface RankRoutesDeps {
  readonly service: RankService;
  readonly writes: WritePipeline;
}

export function rankRoutes({ service, writes }: RankRoutesDeps) {
  return async function register(app: RouteApp): Promise<void> {
    const tags = ['staff'];

    app.post(
      '/v1/staff/:staffId/rank',
      {
        config: { auth: USER },
        preValidation: requireJsonContentType,
        schema: {
          operationId: 'changeStaffRank',
          summary: 'Change a staff member\'s rank (and their role in the Roblox group)',
          description:
            MEMBERS +
            'Needs `staff.rank` (403 `permission_denied`). `Content-Type: application/json` is required (415). When ' +
            'the workspace has ranks, `rank` must be one of their names (400 `validation_failed` naming `body.rank`); ' +
            `without ranks any name of 1 to 60 characters is a rank. \`reason\`: 1 to ${REASON_MAX} characters after ` +
            'trimming, stored trimmed. Giving or taking a rank that is not assignable: 403 `rank_not_assignable`; ' +
            'the current rank: 409 `rank_unchanged` (`rank_not_assignable` wins when both apply). Otherwise the rank ' +
            'changes and the change is recorded, with one command and the event `staff.rank.changed` (its `data` ' +
            'this response\'s `data`, environment `live`), in one transaction. The change then reaches the Roblox ' +
            'group after the commit: `change.sync.status` is `pending` until Open Cloud has applied it (`applied`) ' +
            'or refused it (`failed`, and the event `staff.rank.sync_failed`), or `not_configured` when the ' +
            'workspace has no group id or API key, or neither rank has a role id. Takes an `Idempotency-Key` ' +
            '(required), scoped to the caller: a replay returns the stored result with `Idempotent-Replayed: true`.',
          tags,
          headers: WriteHeadersSchema,
          params: StaffParamsSchema,
          body: ChangeBodySchema,
          response: {
            200: ChangeResponseSchema,
            ...errorResponses({
              403: ['permission_denied', 'rank_not_assignable'],
              404: ['not_found'],
              409: ['rank_unchanged'],
            }),
          },
        },
      },
      writes({
        answer: 'meta',
        actor: userActor,
        input: (request) => ({ staffId: request.params.staffId, body: request.body, request: requestContext(request) }),
        operation: service.change,
      }),
    );

    app.get(
      '/v1/staff/:staffId/rank-changes',
      {
        config: { auth: USER },
        schema: {
          operationId: 'listStaffRankChanges',
          summary: 'List a staff member\'s rank changes',
          description:
            MEMBERS +
            `Any member of the staff member's workspace. The changes newest first, at most ${LIST_LIMIT}, each with ` +
            'its sync to the Roblox group as it stands.',
          tags,
          headers: ReadHeadersSchema,
          params: StaffParamsSchema,
          response: { 200: ListResponseSchema, ...errorResponses({ 404: ['not_found'] }) },
        },
      },
      async (request) => envelope(request, await service.list(userActor(request), request.params.staffId)),
    );
  };
}
