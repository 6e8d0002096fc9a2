import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { UserActor } from '../../actor.ts';
import type { Database } from '../../db/types.ts';
import { envelope } from '../../http/envelope.ts';
import { sendIdempotent, type Idempotency } from '../../http/idempotency.ts';
import { errorResponses } from '../../http/openapi.ts';
import { headerValue, userActor } from '../../http/route-auth.ts';
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
  type AcceptInput,
  type DecisionInput,
  type ReviewPatchInput,
  type SubmissionParams,
} from './schemas.ts';
import type { ApplicationService, RequestContext } from './service.ts';

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

type Operation<Input, Result> = (
  trx: Transaction<Database>,
  actor: UserActor,
  submissionId: string,
  input: Input,
  request: RequestContext,
) => Promise<Result>;

/** Runs a service operation under the request's Idempotency-Key and answers `{ data, meta }` with 200. */
function idempotentHandler<Input, Result>(
  idempotency: Idempotency,
  operation: Operation<Input, Result>,
  input: (body: unknown) => Input,
) {
  return (request: FastifyRequest<{ Params: SubmissionParams }>, reply: FastifyReply) =>
    sendIdempotent(idempotency, request, reply, async (trx) => {
      const context: RequestContext = {
        requestId: request.id,
        idempotencyKey: headerValue(request, 'idempotency-key') ?? null,
      };
      const data = await operation(trx, userActor(request), request.params.submissionId, input(request.body), context);
      return { status: 200, body: envelope(request, data) };
    });
}

/** Besides the 400/401/403/429/500 every authenticated route documents (see documentRoute). */
const errors = () =>
  errorResponses({
    403: ['permission_denied'],
    404: ['not_found'],
    409: ['invalid_state_transition', 'idempotency_request_in_progress'],
    413: ['payload_too_large'],
    415: ['unsupported_media_type'],
    422: ['submission_finalized', 'idempotency_key_reused'],
  });

const optionalBody = <T extends object>(body: unknown): T => (body ?? {}) as T;

export interface ApplicationRoutesDeps {
  readonly service: ApplicationService;
  readonly idempotency: Idempotency;
}

export function applicationRoutes({ service, idempotency }: ApplicationRoutesDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
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
      idempotentHandler(idempotency, service.accept, optionalBody<AcceptInput>),
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
      idempotentHandler(idempotency, service.markUnderReview, optionalBody<DecisionInput>),
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
      idempotentHandler(idempotency, service.reject, optionalBody<DecisionInput>),
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
      idempotentHandler(idempotency, service.updateReview, (body) => body as ReviewPatchInput),
    );
  };
}
