/**
 * Application forms as the rest of applications reads them (the form routes, an intake): the forms' shared read
 * module, holding their queries. Other modules import these, never a repository of forms.
 */
import { sql, type Selectable } from 'kysely';
import { rowsOf } from '../../../db/dialect.ts';
import type { ApplicationFormTable, Executor } from '../../../db/types.ts';
import { notFound } from '../../../shared/errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import type { Question } from './questions.ts';
import { compareText } from '../../../shared/text.ts';

/** An application form as the gateway reads it. */
export interface Form {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly slug: string;
  readonly status: 'open' | 'closed';
  readonly description: string | null;
  readonly departmentId: string | null;
  readonly cooldownDays: number;
  readonly questions: Question[];
}

/** A form's columns as the gateway reads them. */
type FormRow = Pick<
  Selectable<ApplicationFormTable>,
  'id' | 'workspace_id' | 'name' | 'slug' | 'status' | 'description' | 'department_id' | 'cooldown_days' | 'questions'
>;

const FORM_COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'slug',
  'status',
  'description',
  'department_id',
  'cooldown_days',
  'questions',
] as const satisfies readonly (keyof FormRow)[];

/** The stored questions (JSON text) of a form. */
export function readQuestions(json: string): Question[] {
  return JSON.parse(json) as Question[];
}

function toForm(row: FormRow): Form {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    slug: row.slug,
    status: row.status === 'closed' ? 'closed' : 'open',
    description: row.description,
    departmentId: row.department_id,
    cooldownDays: Number(row.cooldown_days),
    questions: readQuestions(row.questions),
  };
}

/**
 * Every form of a workspace, open and closed, by name then id, in the service's order of texts (compareText), the
 * same on both stores.
 */
export async function listForms(db: Executor, workspaceId: string): Promise<Form[]> {
  const rows = await db.selectFrom('application_forms').select(FORM_COLUMNS).where('workspace_id', '=', workspaceId).execute();
  return rows
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.id, b.id))
    .map(toForm);
}

/**
 * The form of this workspace with this id (a uuid, in any case); anything else (a malformed id, an unknown one,
 * another workspace's form) is 404.
 */
export async function findWorkspaceForm(db: Executor, workspaceId: string, formId: string): Promise<Form> {
  const [row] = isUuid(formId)
    ? await rowsOf(
        db,
        sql<FormRow>`select id, workspace_id, name, slug, status, description, department_id, cooldown_days, questions
from application_forms where id = ${formId.toLowerCase()} and workspace_id = ${workspaceId}`,
      )
    : [];
  if (!row) throw notFound('The form');
  return toForm(row);
}
