import { requireJsonContentType } from '../../../http/validation.ts';
import { envelope } from '../../../http/envelope.ts';
import { requestContext, type WritePipeline } from '../../../http/write-pipeline.ts';
import { errorResponses } from '../../../http/openapi.ts';
import { apiKeyActor, type RouteAuth } from '../../../auth/route-auth.ts';
import type { RouteApp } from '../../../http/route-app.ts';
import { APPLICATIONS_READ } from '../forms/routes.ts';
import { FormParamsSchema } from '../forms/schemas.ts';
import {
  ApplicantHeadersSchema,
  ApplicantParamsSchema,
  ApplicantSubmissionsResponseSchema,
  IntakeBodySchema,
  IntakeHeadersSchema,
  IntakeResponseSchema,
} from './schemas.ts';
import type { IntakeService } from './service.ts';

const APPLICATIONS_WRITE = {
  kind: 'apiKey',
  scope: 'applications:write',
  feature: 'applications',
  useCachedKey: true,
} as const satisfies RouteAuth;

export interface IntakeRouteDeps {
  readonly service: IntakeService;
  readonly writes: WritePipeline;
}

export function intakeRoutes({ service, writes }: IntakeRouteDeps) {
  return async function register(app: RouteApp): Promise<void> {
    app.post(
      '/v1/applications/forms/:formId/submissions',
      {
        config: { auth: APPLICATIONS_WRITE },
        preValidation: requireJsonContentType,
        schema: {
          operationId: 'submitApplication',
          summary: 'Submit an application to a form',
          description:
            'Records a `submitted` submission to a form of the key\'s workspace, in the key\'s environment (a test ' +
            'key never fills the live queue). Scope `applications:write`, feature `applications`. ' +
            '`Content-Type: application/json` is required (415). `applicant.gameUserId` may be a string of 1 to 32 ' +
            'digits or a number (stored as its decimal string); applicant fields left out are null. Order of checks: ' +
            'the form (404 for an unknown id, one that is not a uuid, or another workspace\'s form); the answers, ' +
            'every problem at once in `details.issues` as `{ questionId, code, message }` (400 ' +
            '`validation_failed`; codes `required`, `unknown_question`, `wrong_type`, `too_long`, `below_min`, ' +
            '`above_max`, `not_an_option`, `duplicate_option`; text is trimmed, an empty text is no answer, lengths ' +
            'count characters, a required boolean answered `false` is answered); a closed form (409 `form_closed`); ' +
            'a submission of this applicant to this form still `submitted` or `under_review` in this environment ' +
            '(409 `submission_pending`, `details.submissionId`: also the answer to the loser of two racing ' +
            'submissions); a rejection less than the form\'s `cooldownDays` ago (409 `application_cooldown`, ' +
            '`details.retryAfter`: the rejection plus `cooldownDays` × 24 h). The submission, a command and the ' +
            'event `application.submission.submitted` (delivered to webhooks with this response\'s `data`, in the ' +
            'key\'s environment) are recorded in one transaction. Takes an `Idempotency-Key` (required), scoped to ' +
            'the application and environment: a replay returns the stored result with `Idempotent-Replayed: true`.',
          tags: ['applications'],
          params: FormParamsSchema,
          headers: IntakeHeadersSchema,
          body: IntakeBodySchema,
          response: {
            200: IntakeResponseSchema,
            ...errorResponses({
              404: ['not_found'],
              409: ['form_closed', 'submission_pending', 'application_cooldown'],
            }),
          },
        },
      },
      writes({
        answer: 'meta',
        actor: apiKeyActor,
        input: (request) => ({ formId: request.params.formId, body: request.body, request: requestContext(request) }),
        operation: service.submit,
      }),
    );

    app.get(
      '/v1/applications/applicants/:gameUserId/submissions',
      {
        config: { auth: APPLICATIONS_READ, personalPath: true },
        schema: {
          operationId: 'listApplicantSubmissions',
          summary: 'What an applicant may be told about their submissions',
          description:
            'The last 20 submissions of the applicant with this game user id in the key\'s workspace and ' +
            'environment, newest first: status and dates only (never a score, reviewer notes or review notes). An ' +
            'applicant with none gets an empty list. Scope `applications:read`, feature `applications`.',
          tags: ['applications'],
          params: ApplicantParamsSchema,
          headers: ApplicantHeadersSchema,
          // A path segment that is not valid percent-encoding names nothing (docs/API.md, "Behaviour worth knowing").
          response: { 200: ApplicantSubmissionsResponseSchema, ...errorResponses({ 404: ['not_found'] }) },
        },
      },
      async (request) =>
        envelope(request, {
          submissions: await service.applicantSubmissions(apiKeyActor(request), request.params.gameUserId),
        }),
    );
  };
}
