import { envelope } from '../../../http/envelope.ts';
import { errorResponses } from '../../../http/openapi.ts';
import { apiKeyActor, type RouteAuth } from '../../../auth/route-auth.ts';
import type { RouteApp } from '../../../http/route-app.ts';
import type { Executor } from '../../../db/types.ts';
import { findWorkspaceForm, listForms } from './forms.ts';
import { FormListResponseSchema, FormParamsSchema, FormReadHeadersSchema, FormResponseSchema } from './schemas.ts';
import { formView } from './views.ts';

export const APPLICATIONS_READ = { kind: 'apiKey', scope: 'applications:read', feature: 'applications' } as const satisfies RouteAuth;

export interface FormRoutesDeps {
  readonly db: Executor;
}

/** A workspace's application forms, as its API keys read them. */
export function formRoutes({ db }: FormRoutesDeps) {
  return async function register(app: RouteApp): Promise<void> {
    app.get(
      '/v1/applications/forms',
      {
        config: { auth: APPLICATIONS_READ },
        schema: {
          operationId: 'listApplicationForms',
          summary: 'List the application forms of the key\'s workspace',
          description:
            'Every form of the key\'s workspace, open and closed, ordered by `name` (character order, case-sensitive) ' +
            'then `id`, each with its ' +
            'questions in order and every default filled in (`required` false; `maxLength` 200 for `short_text` and ' +
            '5000 for `long_text`); fields that do not apply, or were not given, are null. Scope ' +
            '`applications:read`, feature `applications`.',
          tags: ['applications'],
          headers: FormReadHeadersSchema,
          response: { 200: FormListResponseSchema },
        },
      },
      async (request) => {
        const forms = await listForms(db, apiKeyActor(request).application.workspaceId);
        return envelope(request, { forms: forms.map(formView) });
      },
    );

    app.get(
      '/v1/applications/forms/:formId',
      {
        config: { auth: APPLICATIONS_READ },
        schema: {
          operationId: 'getApplicationForm',
          summary: 'Get one application form',
          description:
            'A form of the key\'s workspace, as the list shows it. Scope `applications:read`, feature ' +
            '`applications`. Another workspace\'s form, an unknown id or one that is not a uuid: 404.',
          tags: ['applications'],
          params: FormParamsSchema,
          headers: FormReadHeadersSchema,
          response: { 200: FormResponseSchema, ...errorResponses({ 404: ['not_found'] }) },
        },
      },
      async (request) => {
        const form = await findWorkspaceForm(db, apiKeyActor(request).application.workspaceId, request.params.formId);
        return envelope(request, { form: formView(form) });
      },
    );
  };
}
