import { envelope } from '../../../http/envelope.ts';
import { errorResponses } from '../../../http/openapi.ts';
import { userActor } from '../../../auth/route-auth.ts';
import type { RouteApp } from '../../../http/route-app.ts';
import {
  DetailResponseSchema,
  QueueQuerySchema,
  QueueReadHeadersSchema,
  QueueResponseSchema,
  StatsQuerySchema,
  StatsResponseSchema,
} from './schemas.ts';
import type { QueueService } from './service.ts';
import { SubmissionParamsSchema } from '../review/schemas.ts';

const ACCESS =
  'Dashboard user token only. Needs `applications.review` or `applications.decide` (403 `permission_denied`). ' +
  'With `X-Service-Workspace-Id`, only that workspace is read (the caller must hold one of the two permissions ' +
  'there); without it, every workspace where the caller holds one of them.';

export interface QueueRoutesDeps {
  readonly service: QueueService;
}

export function queueRoutes({ service }: QueueRoutesDeps) {
  return async function register(app: RouteApp): Promise<void> {
    const common = { tags: ['applications'], headers: QueueReadHeadersSchema };
    const config = { auth: { kind: 'user' } } as const;

    app.get(
      '/v1/applications/submissions',
      {
        config,
        schema: {
          ...common,
          operationId: 'listSubmissions',
          summary: 'List the reviewers\' queue of application submissions',
          description:
            'Submissions in the given statuses (default `submitted,under_review`) and environment (default ' +
            '`live`), optionally of one form, ordered by `createdAt` then `id`, both ascending (oldest first). ' +
            'Keyset pagination: pass `nextCursor` back as `cursorCreatedAt` and `cursorId` (both or neither, else ' +
            '400). A malformed `status`, `formId`, `environment`, `limit` or cursor is 400 `validation_failed`; a ' +
            `\`formId\` that names no form of the workspace gives an empty page. ${ACCESS}`,
          querystring: QueueQuerySchema,
          response: { 200: QueueResponseSchema, ...errorResponses({ 403: ['permission_denied'] }) },
        },
      },
      async (request) => envelope(request, await service.list(userActor(request), request.query)),
    );

    app.get(
      '/v1/applications/submissions/:submissionId',
      {
        config,
        schema: {
          ...common,
          operationId: 'getSubmission',
          summary: 'Get one application submission with its answers and history',
          description:
            'The queue\'s item plus `reviewerNotes`, `staffProfileId`, the answers as they were given and the ' +
            'history: one entry per recorded command (submit, mark under review, review update, accept, ' +
            'reject), oldest first. A submission of a workspace the caller is not a member of (or not the ' +
            'selected one), an unknown one, or a `submissionId` that is not a uuid is 404 `not_found`; a member ' +
            `without either permission gets 403 \`permission_denied\`. ${ACCESS}`,
          params: SubmissionParamsSchema,
          response: {
            200: DetailResponseSchema,
            ...errorResponses({ 403: ['permission_denied'], 404: ['not_found'] }),
          },
        },
      },
      async (request) =>
        envelope(request, { submission: await service.get(userActor(request), request.params.submissionId) }),
    );

    app.get(
      '/v1/applications/stats',
      {
        config,
        schema: {
          ...common,
          operationId: 'getApplicationStats',
          summary: 'Count application submissions by form and status',
          description:
            'One row per form of the workspace, zeros included, ordered by form name then id (compared ' +
            'character by character, capitals before lower case, not by a language\'s collation), then (only when ' +
            'there are any) one row with `formId` and `formName` null for submissions without a form; counts ' +
            `are of the given \`environment\` (default \`live\`). ${ACCESS}`,
          querystring: StatsQuerySchema,
          response: { 200: StatsResponseSchema, ...errorResponses({ 403: ['permission_denied'] }) },
        },
      },
      async (request) => envelope(request, await service.stats(userActor(request), request.query)),
    );
  };
}
