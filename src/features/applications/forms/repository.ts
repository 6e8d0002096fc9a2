import { sql, type Selectable } from 'kysely';
import { rowsOf } from '../../../db/dialect.ts';
import type { ApplicationFormTable, Executor } from '../../../db/types.ts';
import { readQuestions, type Question } from './questions.ts';

/** An application form as the service reads it. */
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

/** A form's columns as the service reads them. */
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

const byCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every form of a workspace, open and closed, by name then id. The order is the names' characters' (case
 * sensitive), the same on both stores: PostgreSQL would otherwise sort text by its collation, SQLite by bytes.
 */
export async function listForms(db: Executor, workspaceId: string): Promise<Form[]> {
  const rows = await db.selectFrom('application_forms').select(FORM_COLUMNS).where('workspace_id', '=', workspaceId).execute();
  return rows
    .sort((a, b) => byCodePoints(a.name, b.name) || byCodePoints(a.id, b.id))
    .map(toForm);
}

/** The form with this id in this workspace (another workspace's form is none). */
export async function findForm(db: Executor, workspaceId: string, formId: string): Promise<Form | undefined> {
  const [row] = await rowsOf(
    db,
    sql<FormRow>`select id, workspace_id, name, slug, status, description, department_id, cooldown_days, questions
from application_forms where id = ${formId} and workspace_id = ${workspaceId}`,
  );
  return row ? toForm(row) : undefined;
}
