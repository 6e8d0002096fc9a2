import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import { newId } from '../../src/shared/ids.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import type { FormDocument, SubmissionDocument } from '../../src/provisioning/schema.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { formDoc } from '../features/applications/intake-helpers.ts';
import { rejection, withProvisionedStore, type BaseFixture } from './documents.ts';

function submission(overrides: Partial<SubmissionDocument> = {}): SubmissionDocument {
  return {
    id: newId(),
    status: 'submitted',
    applicant: { gameUserId: '2001', gameUsername: 'bob', displayName: 'Bob' },
    answers: { why: 'to help', age: 30, colour: 'blue' },
    createdAt: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

describe.each(STORE_KINDS)('provisioning application forms (%s)', (kind) => {
  let store: Store;
  const clock = new ManualClock(DEFAULT_NOW);
  const apply = (document: unknown) => applyProvisioning(store.db, document, clock);

  let base: BaseFixture;
  withProvisionedStore(kind, (opened, provisioned) => {
    store = opened;
    base = provisioned;
  });

  const formRow = (id: string) => store.db.selectFrom('application_forms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('stores a form with every default filled in; applying the document again changes nothing', async () => {
    const fixture = buildFixture();
    const form: FormDocument = {
      id: newId(),
      name: 'Support application',
      slug: 'support',
      status: 'open',
      departmentId: fixture.ids.departments.support,
      questions: [
        { id: 'why', label: 'Why?', type: 'long_text' },
        { id: 'age', label: 'Age', type: 'number', required: true },
      ],
    };
    fixture.workspace.forms = [form];
    await apply(fixture.document);
    const row = await formRow(form.id);
    expect(row).toMatchObject({
      workspace_id: fixture.ids.workspaceId,
      name: 'Support application',
      slug: 'support',
      status: 'open',
      description: null,
      department_id: fixture.ids.departments.support,
      cooldown_days: 0,
    });
    expect(JSON.parse(row.questions)).toEqual([
      { id: 'why', label: 'Why?', type: 'long_text', required: false, maxLength: 5000, min: null, max: null, options: null },
      { id: 'age', label: 'Age', type: 'number', required: true, maxLength: null, min: null, max: null, options: null },
    ]);
    clock.advance(1000);
    await apply(fixture.document);
    expect(Number((await formRow(form.id)).updated_at)).toBe(Number(row.updated_at));
  });

  it('a submission naming its form stores the form, and its answers with the form\'s labels in question order', async () => {
    const fixture = buildFixture();
    const form = formDoc();
    fixture.workspace.forms = [form];
    const named = submission({ formId: form.id.toUpperCase() });
    const plain = submission({ applicant: { gameUserId: '2002', gameUsername: 'eve', displayName: 'Eve' } });
    fixture.workspace.submissions = [named, plain];
    await apply(fixture.document);
    const rows = await store.db.selectFrom('submissions').selectAll().where('id', 'in', [named.id, plain.id]).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(named.id)).toMatchObject({ form_id: form.id, environment: 'live', game_user_id: '2001' });
    expect(JSON.parse(byId.get(named.id)!.answers)).toEqual([
      { questionId: 'why', label: 'Why do you want to join?', type: 'long_text', value: 'to help' },
      { questionId: 'age', label: 'How old are you?', type: 'number', value: 30 },
      { questionId: 'colour', label: 'colour', type: 'short_text', value: 'blue' },
    ]);
    expect(byId.get(plain.id)).toMatchObject({ form_id: null });
    expect(JSON.parse(byId.get(plain.id)!.answers)).toEqual({ why: 'to help', age: 30, colour: 'blue' });

    // A later document replaces the questions; the submission keeps the labels it was answered under.
    const renamed = { ...form, questions: [{ id: 'why', label: 'Tell us why', type: 'short_text' as const }] };
    await apply({ workspaces: [{ ...fixture.workspace, forms: [renamed] }] });
    expect(JSON.parse((await formRow(form.id)).questions)).toEqual([
      { id: 'why', label: 'Tell us why', type: 'short_text', required: false, maxLength: 200, min: null, max: null, options: null },
    ]);
    const kept = await store.db.selectFrom('submissions').select('answers').where('id', '=', named.id).executeTakeFirstOrThrow();
    expect(JSON.parse(kept.answers)[0]).toEqual({ questionId: 'why', label: 'Why do you want to join?', type: 'long_text', value: 'to help' });
  });

  it('a submission may name a form that is already in the database', async () => {
    const form = formDoc();
    await apply({ workspaces: [{ ...base.workspace, forms: [form] }] });
    const later = submission({ answers: { why: 'again' } });
    await apply({ workspaces: [{ ...base.workspace, submissions: [{ ...later, formId: form.id }] }] });
    const row = await store.db.selectFrom('submissions').selectAll().where('id', '=', later.id).executeTakeFirstOrThrow();
    expect(row.form_id).toBe(form.id);
    expect(JSON.parse(row.answers)).toEqual([{ questionId: 'why', label: 'Why do you want to join?', type: 'long_text', value: 'again' }]);
  });

  const INVALID: Array<[string, (f: BaseFixture) => void, string, RegExp]> = [
    ['a question id used twice', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'a', label: 'A', type: 'boolean' }, { id: 'a', label: 'B', type: 'boolean' }] })];
    }, '$.workspaces[0].forms[0].questions[1].id', /already used/],
    ['options on a text question', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'a', label: 'A', type: 'short_text', options: ['x'] }] })];
    }, '$.workspaces[0].forms[0].questions[0].options', /only to choice/],
    ['a choice without options', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'a', label: 'A', type: 'choice' }] })];
    }, '$.workspaces[0].forms[0].questions[0].options', /is required/],
    ['options that repeat', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'a', label: 'A', type: 'multi_choice', options: ['x', 'x'] }] })];
    }, '$.workspaces[0].forms[0].questions[0].options', /distinct/],
    ['a short text maxLength over 200', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'a', label: 'A', type: 'short_text', maxLength: 201 }] })];
    }, '$.workspaces[0].forms[0].questions[0].maxLength', /at most 200/],
    ['a maxLength on a number', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'a', label: 'A', type: 'number', maxLength: 5 }] })];
    }, '$.workspaces[0].forms[0].questions[0].maxLength', /applies only/],
    ['min above max', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'a', label: 'A', type: 'number', min: 5, max: 1 }] })];
    }, '$.workspaces[0].forms[0].questions[0].max', /less than min/],
    ['a question id with capitals', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'Why', label: 'A', type: 'boolean' }] })];
    }, '$.workspaces[0].forms[0].questions[0].id', /must match/],
    ['no questions', (f) => {
      f.workspace.forms = [formDoc({ questions: [] })];
    }, '$.workspaces[0].forms[0].questions', /fewer than 1/],
    ['an unknown question type', (f) => {
      f.workspace.forms = [formDoc({ questions: [{ id: 'a', label: 'A', type: 'date' as 'boolean' }] })];
    }, '$.workspaces[0].forms[0].questions[0].type', /must be one of/],
    ['a description over 2000', (f) => {
      f.workspace.forms = [formDoc({ description: 'd'.repeat(2001) })];
    }, '$.workspaces[0].forms[0].description', /2000/],
    ['a department of another workspace', (f) => {
      f.workspace.forms = [formDoc({ departmentId: f.second.ids.departments.support })];
    }, '$.workspaces[0].forms[0].departmentId', /another workspace/],
    ['an unknown department', (f) => {
      f.workspace.forms = [formDoc({ departmentId: newId() })];
    }, '$.workspaces[0].forms[0].departmentId', /neither in this document nor in the database/],
    ['a submission naming a form of another workspace', (f) => {
      const other = formDoc();
      f.second.workspace.forms = [other];
      f.workspace.submissions = [submission({ formId: other.id })];
    }, '$.workspaces[0].submissions[0].formId', /another workspace/],
    ['a submission naming an unknown form', (f) => {
      f.workspace.submissions = [submission({ formId: newId() })];
    }, '$.workspaces[0].submissions[0].formId', /neither in this document nor in the database/],
    ['two pending submissions of one applicant to one form', (f) => {
      const form = formDoc();
      f.workspace.forms = [form];
      f.workspace.submissions = [submission({ formId: form.id }), submission({ formId: form.id, status: 'under_review' })];
    }, '$.workspaces[0].submissions[1].status', /awaiting review on this form at \$\.workspaces\[0\]\.submissions\[0\]\.status/],
    ['two forms with one slug', (f) => {
      f.workspace.forms = [formDoc({ slug: 'same' }), formDoc({ slug: 'same' })];
    }, '$.workspaces[0].forms[1].slug', /already used/],
  ];

  it.each(INVALID)('refuses %s and changes nothing', async (_name, configure, path, message) => {
    const fixture = buildFixture({ secondWorkspace: true });
    configure(fixture);
    const error = await rejection(apply(fixture.document));
    expect(error.issues).toContainEqual({ path, message: expect.stringMatching(message) });
    const workspace = await store.db.selectFrom('workspaces').select('id').where('id', '=', fixture.ids.workspaceId).execute();
    expect(workspace).toEqual([]);
  });

  it('a pending submission of an applicant who has one to that form in the database is refused; a decided one is not', async () => {
    const form = formDoc();
    const first = submission({ formId: form.id, applicant: { gameUserId: '7007', gameUsername: 'x', displayName: 'X' } });
    await apply({ workspaces: [{ ...base.workspace, forms: [form], submissions: [first] }] });
    const second = { ...first, id: newId() };
    const error = await rejection(apply({ workspaces: [{ ...base.workspace, submissions: [second] }] }));
    expect(error.issues).toEqual([
      { path: '$.workspaces[0].submissions[0].status', message: `the applicant already has submission ${first.id} awaiting review on this form` },
    ]);
    // The same document again (the first submission exists, so it is left alone), and a decided one, are fine.
    await apply({ workspaces: [{ ...base.workspace, submissions: [first, { ...second, status: 'rejected' }] }] });
  });

  it('a form cannot move to another workspace', async () => {
    const form = formDoc();
    await apply({ workspaces: [{ ...base.workspace, forms: [form] }] });
    const error = await rejection(apply({ workspaces: [{ ...base.second.workspace, forms: [form] }] }));
    expect(error.issues).toContainEqual({ path: '$.workspaces[0].forms[0].id', message: expect.stringMatching(/cannot move/) });
  });
});
