import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/shared/ids.ts';
import type { TestContext } from '../../helpers/app.ts';
import { seed } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { errorCode } from './helpers.ts';
import { formDoc, get, provisionForms, useIntakeWorld, type IntakeFixture } from './intake-helpers.ts';

const FULL_QUESTIONS = [
  { id: 'why', label: 'Why do you want to join?', type: 'long_text', required: true, maxLength: 2000, min: null, max: null, options: null },
  { id: 'age', label: 'How old are you?', type: 'number', required: true, maxLength: null, min: 13, max: 99, options: null },
  { id: 'tz', label: 'Time zone', type: 'choice', required: false, maxLength: null, min: null, max: null, options: ['EU', 'NA', 'Asia'] },
  { id: 'rules', label: 'Do you accept the rules?', type: 'boolean', required: true, maxLength: null, min: null, max: null, options: null },
  { id: 'langs', label: 'Languages', type: 'multi_choice', required: false, maxLength: null, min: null, max: null, options: ['en', 'de', 'fr'] },
  { id: 'nick', label: 'Nickname', type: 'short_text', required: false, maxLength: 200, min: null, max: null, options: null },
];

describe.each(STORE_KINDS)('application forms through an API key (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: IntakeFixture;

  const world = useIntakeWorld(kind);
  beforeAll(() => {
    ({ ctx, fixture } = world);
  });

  const list = (secret: string) => get(ctx.inject, secret, '/v1/applications/forms');
  const one = (secret: string, formId: string) => get(ctx.inject, secret, `/v1/applications/forms/${formId}`);

  it('lists the workspace\'s open and closed forms by name, every default filled in and every field present', async () => {
    const res = await list(fixture.keys.test.secret);
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toEqual({ requestId: res.headers['x-request-id'], correlationId: res.headers['x-request-id'] });
    expect(data.forms.map((f: { id: string }) => f.id)).toEqual([fixture.closedForm.id, fixture.form.id]);
    expect(data.forms[1]).toEqual({
      id: fixture.form.id,
      name: 'Moderator application',
      slug: fixture.form.slug,
      status: 'open',
      description: 'Help keep the community friendly.',
      departmentId: null,
      cooldownDays: 14,
      questions: FULL_QUESTIONS,
    });
    expect(data.forms[0]).toMatchObject({ status: 'closed', cooldownDays: 0 });
  });

  it('gets one form; its id in upper case names it too', async () => {
    const res = await one(fixture.keys.live.secret, fixture.form.id.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().data.form).toMatchObject({ id: fixture.form.id, questions: FULL_QUESTIONS });
  });

  it.each([
    ['another workspace\'s form', () => fixture.otherForm.id],
    ['an unknown id', () => newId()],
    ['an id that is not a uuid', () => 'moderator'],
  ])('%s is 404 not_found', async (_label, id) => {
    const res = await one(fixture.keys.test.secret, id());
    expect(res.statusCode).toBe(404);
    expect(errorCode(res)).toBe('not_found');
  });

  it('orders by name, case-sensitively, then by id, the same on both stores', async () => {
    const [x, y] = [newId(), newId()].sort();
    const forms = [
      formDoc({ id: y!, name: 'beta' }),
      formDoc({ id: newId(), name: 'Gamma' }),
      formDoc({ id: x!, name: 'beta' }),
      formDoc({ id: newId(), name: 'Alpha' }),
    ];
    await seed(ctx, { document: { workspaces: [{ ...fixture.second.workspace, forms }] } });
    const res = await list(fixture.second.keys.test.secret);
    const listed = res.json().data.forms as Array<{ id: string; name: string }>;
    expect(listed.map((f) => f.name)).toEqual(['Alpha', 'Gamma', 'Other workspace form', 'beta', 'beta']);
    expect(listed.slice(3).map((f) => f.id)).toEqual([x, y]);
  });

  it('the second workspace sees only its own form', async () => {
    const res = await list(fixture.second.keys.live.secret);
    expect(res.json().data.forms.map((f: { id: string }) => f.id)).not.toContain(fixture.form.id);
  });

  it('needs applications:read (403 insufficient_scope) and the applications feature (403 feature_disabled)', async () => {
    for (const secret of [fixture.keys.writeOnly.secret, fixture.keys.activityOnly.secret]) {
      const res = await list(secret);
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('insufficient_scope');
      expect(res.json().error.details).toEqual({ requiredScope: 'applications:read' });
    }
    expect((await list(fixture.keys.readOnly.secret)).statusCode).toBe(200);
    for (const res of [await list(fixture.featureOff.secret), await one(fixture.featureOff.secret, fixture.form.id)]) {
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('feature_disabled');
    }
    expect((await list('wsk_test_unknownunknownunknownunknownunknown')).statusCode).toBe(401);
  });

  it('a later provisioning document replaces the questions and the settings', async () => {
    const changed = formDoc({ name: 'Helper application', slug: 'helper', status: 'closed', cooldownDays: 3 });
    const form = { ...changed, id: newId(), departmentId: fixture.ids.departments.support, description: null };
    await provisionForms(ctx, fixture, [form]);
    await provisionForms(ctx, fixture, [
      { ...form, status: 'open', questions: [{ id: 'why', label: 'Why?', type: 'short_text', maxLength: 50 }] },
    ]);
    const res = await one(fixture.keys.test.secret, form.id);
    expect(res.json().data.form).toEqual({
      id: form.id,
      name: 'Helper application',
      slug: 'helper',
      status: 'open',
      description: null,
      departmentId: fixture.ids.departments.support,
      cooldownDays: 3,
      questions: [{ id: 'why', label: 'Why?', type: 'short_text', required: false, maxLength: 50, min: null, max: null, options: null }],
    });
  });
});
