import { requestContext, type WritePipeline } from '../../../http/write-pipeline.ts';
import { errorResponses } from '../../../http/openapi.ts';
import { userActor } from '../../../auth/route-auth.ts';
import { optionalBody } from '../../../http/validation.ts';
import type { RouteApp, RouteRequest } from '../../../http/route-app.ts';
import {
  AcceptBodySchema,
  AcceptResponseSchema,
  DecisionBodySchema,
  RejectResponseSchema,
  ReviewHeadersSchema,
  ReviewPatchBodySchema,
  ReviewUpdateResponseSchema,
  SubmissionParamsSchema,
  UnderReviewResponseSchema,
} from './schemas.ts';
import type { ApplicationService, ReviewInput } from './service.ts';

const BASE = '/v1/applications/submissions/:submissionId';

const COMMON =
  'Dashboard user token only. The submission must be in a workspace the caller is a member of (and in the ' +
  'workspace named by `X-Service-Workspace-Id`, when sent); otherwise, or when `submissionId` is not a uuid, 404 ' +
  '`not_found`. Accepted and rejected submissions are final: any operation on them is 422 ' +
  '`submission_finalized` (an idempotent replay of the original result is not an operation). The change, one ' +
  'command and one event are recorded in one transaction; concurrent operations on one submission, on any ' +
  'instance, have exactly one winner, and the others get the 409/422 the final state implies.';

const NOTE =
  ' `reviewNote` is recorded in the command and event payloads; it does not change the submission\'s ' +
  '`reviewerNotes`.';

/** A review operation's input: the submission named in the path, the body as the operation takes it, the request. */
function reviewInput<Body>(request: RouteRequest<{ params: typeof SubmissionParamsSchema }>, body: Body): ReviewInput<Body> {
  return { submissionId: request.params.submissionId, body, request: requestContext(request) };
}

/**
 * Besides the 400/401/403/429/500 every authenticated route documents and the write pipeline's 409/413/415/422
 * (see documentRoute).
 */
const errors = () =>
  errorResponses({
    403: ['permission_denied'],
    404: ['not_found'],
    409: ['invalid_state_transition'],
    422: ['submission_finalized'],
  });


export interface ApplicationRoutesDeps {
  readonly service: ApplicationService;
  readonly writes: WritePipeline;
}

export function applicationRoutes({ service, writes }: ApplicationRoutesDeps) {
  return async function register(app: RouteApp): Promise<void> {
    const auth = { auth: { kind: 'user' } } as const;
    const common = { tags: ['applications'], params: SubmissionParamsSchema, headers: ReviewHeadersSchema };

    app.post(
      `${BASE}/accept`,
      {
        config: auth,
        schema: {
          ...common,
          operationId: 'acceptSubmission',
          summary: 'Accept an application submission',
          description:
            'Moves a `submitted` or `under_review` submission to `accepted`. Requires `applications.decide`. ' +
            'A staff profile for the applicant is created (or, when the workspace already has one for the ' +
            'applicant\'s game user, linked: `staffProfileCreated: false` with its id) when `createStaffProfile` ' +
            'says so and the caller has `staff.create`; without `staff.create` (or without the field) the ' +
            'workspace setting `createStaffProfileOnAccept` decides. Without a profile, `staffProfileId` is null. ' +
            COMMON +
            NOTE,
          body: AcceptBodySchema,
          response: { 200: AcceptResponseSchema, ...errors() },
        },
      },
      writes({
        answer: 'meta',
        actor: userActor,
        input: (request) => reviewInput(request, optionalBody(request.body)),
        operation: service.accept,
      }),
    );

    app.post(
      `${BASE}/mark-under-review`,
      {
        config: auth,
        schema: {
          ...common,
          operationId: 'markSubmissionUnderReview',
          summary: 'Mark an application submission as under review',
          description:
            'Moves a `submitted` submission to `under_review` and sets `reviewedAt`. Requires ' +
            '`applications.review`. From `under_review`: 409 `invalid_state_transition`. ' +
            COMMON +
            NOTE,
          body: DecisionBodySchema,
          response: { 200: UnderReviewResponseSchema, ...errors() },
        },
      },
      writes({
        answer: 'meta',
        actor: userActor,
        input: (request) => reviewInput(request, optionalBody(request.body)),
        operation: service.markUnderReview,
      }),
    );

    app.post(
      `${BASE}/reject`,
      {
        config: auth,
        schema: {
          ...common,
          operationId: 'rejectSubmission',
          summary: 'Reject an application submission',
          description:
            'Moves a `submitted` or `under_review` submission to `rejected`. Requires `applications.decide`. ' +
            COMMON +
            NOTE,
          body: DecisionBodySchema,
          response: { 200: RejectResponseSchema, ...errors() },
        },
      },
      writes({
        answer: 'meta',
        actor: userActor,
        input: (request) => reviewInput(request, optionalBody(request.body)),
        operation: service.reject,
      }),
    );

    app.patch(
      `${BASE}/review`,
      {
        config: auth,
        schema: {
          ...common,
          operationId: 'updateSubmissionReview',
          summary: 'Update the reviewer score and notes of a submission',
          description:
            'Updates `score` and/or `reviewerNotes` of a `submitted` or `under_review` submission without ' +
            'changing its status, and sets `reviewedAt` to now. Requires `applications.review`. Omitted fields ' +
            'are left unchanged; null clears a field, and so does an empty `reviewerNotes`. `scoreUpdated` / ' +
            '`reviewerNotesUpdated` are true when the patch carried that field. 400 for malformed JSON, an empty ' +
            'body or `{}`, unknown properties, a score that is not a number or null or is outside 0..100, and ' +
            'notes over 5000 characters. ' +
            COMMON,
          body: ReviewPatchBodySchema,
          response: { 200: ReviewUpdateResponseSchema, ...errors() },
        },
      },
      writes({
        answer: 'meta',
        actor: userActor,
        input: (request) => reviewInput(request, request.body),
        operation: service.updateReview,
      }),
    );
  };
}
