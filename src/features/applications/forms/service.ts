import type { ApiKeyActor } from '../../../shared/actor.ts';
import type { Executor } from '../../../db/types.ts';
import { notFound } from '../../../shared/errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { findForm, listForms, type Form } from './repository.ts';

export type { Form } from './repository.ts';

/** The form of this workspace with this id; anything else (a malformed id, another workspace's form) is 404. */
export async function findWorkspaceForm(db: Executor, workspaceId: string, formId: string): Promise<Form> {
  const form = isUuid(formId) ? await findForm(db, workspaceId, formId.toLowerCase()) : undefined;
  if (!form) throw notFound('The form');
  return form;
}

export interface FormServiceDeps {
  readonly db: Executor;
}

/** A workspace's application forms, as its API keys read them. */
export function createFormService({ db }: FormServiceDeps) {
  return {
    list: (actor: ApiKeyActor): Promise<Form[]> => listForms(db, actor.application.workspaceId),
    get: (actor: ApiKeyActor, formId: string): Promise<Form> => findWorkspaceForm(db, actor.application.workspaceId, formId),
  };
}

export type FormService = ReturnType<typeof createFormService>;
