import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { newId, randomBase62 } from '../../../src/shared/ids.ts';
import type { FormDocument, WebhookDocument, WorkspaceDocument } from '../../../src/provisioning/schema.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import type { Inject } from '../../helpers/contract.ts';
import { dashboardToken, REVIEWER_USER_ID, seed, type FixtureKey } from '../../helpers/fixtures.ts';
import type { StoreKind } from '../../helpers/stores.ts';
import { newKey, seedReviewFixture, type ReviewFixture } from './helpers.ts';

/** The form of the README's example: a long text, a number and a choice, plus a boolean and a multi choice. */
export function formDoc(overrides: Partial<FormDocument> = {}): FormDocument {
  return {
    id: newId(),
    name: 'Moderator application',
    slug: `moderator-${randomBase62(6).toLowerCase()}`,
    status: 'open',
    description: 'Help keep the community friendly.',
    cooldownDays: 14,
    questions: [
      { id: 'why', label: 'Why do you want to join?', type: 'long_text', required: true, maxLength: 2000 },
      { id: 'age', label: 'How old are you?', type: 'number', required: true, min: 13, max: 99 },
      { id: 'tz', label: 'Time zone', type: 'choice', options: ['EU', 'NA', 'Asia'] },
      { id: 'rules', label: 'Do you accept the rules?', type: 'boolean', required: true },
      { id: 'langs', label: 'Languages', type: 'multi_choice', options: ['en', 'de', 'fr'] },
      { id: 'nick', label: 'Nickname', type: 'short_text' },
    ],
    ...overrides,
  };
}

/** Answers `formDoc()` accepts. */
export const GOOD_ANSWERS = { why: 'I like helping.', age: 19, tz: 'EU', rules: true, langs: ['en', 'de'], nick: 'bobby' };

let nextGameUserId = 700_000;
/** A game user id no other test of the file uses. */
export function freshGameUserId(): string {
  nextGameUserId += 1;
  return String(nextGameUserId);
}

export function intakeBody(gameUserId: string | number = freshGameUserId(), answers: Record<string, unknown> = GOOD_ANSWERS) {
  return { applicant: { gameUserId, gameUsername: 'bob', displayName: 'Bob', chatUserId: '7771' }, answers };
}

export interface SubmitOptions {
  readonly key?: string | null;
  readonly contentType?: string | null;
  readonly raw?: string;
}

export function submit(
  inject: Inject,
  secret: string,
  formId: string,
  body: unknown,
  options: SubmitOptions = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${secret}` };
  const key = options.key === undefined ? newKey() : options.key;
  if (key !== null) headers['idempotency-key'] = key;
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  return inject({
    method: 'POST',
    url: `/v1/applications/forms/${formId}/submissions`,
    headers,
    payload: options.raw ?? JSON.stringify(body),
  });
}

export function get(inject: Inject, secret: string, url: string): Promise<LightMyRequestResponse> {
  return inject({ method: 'GET', url, headers: { authorization: `Bearer ${secret}` } });
}

/** Keys of the fixture's workspace beside `test` and `live` (every scope). */
export type IntakeKeyName = 'readOnly' | 'writeOnly' | 'activityOnly';

export type IntakeFixture = ReviewFixture & {
  readonly form: FormDocument;
  readonly closedForm: FormDocument;
  readonly otherForm: FormDocument;
  readonly keys: ReviewFixture['keys'] & Readonly<Record<IntakeKeyName, FixtureKey>>;
  /** A live key of a second application of the workspace whose `applications` feature is off. */
  readonly featureOff: FixtureKey;
};

/** Adds `key` to the first application of `workspace` under `name`. */
function addKey(workspace: WorkspaceDocument, key: FixtureKey): void {
  workspace.applications![0]!.keys.push({ id: key.id, environment: key.environment, scopes: [...key.scopes], secret: key.secret });
}

function fixtureKey(scopes: FixtureKey['scopes'], environment: FixtureKey['environment'] = 'live'): FixtureKey {
  return { id: newId(), secret: `wsk_${environment}_${randomBase62(40)}`, environment, scopes };
}

/** The review fixture plus forms (an open one, a closed one, one in the second workspace) and narrower keys. */
export async function seedIntakeFixture(ctx: Pick<TestContext, 'store' | 'clock'>): Promise<IntakeFixture> {
  const form = formDoc();
  const closedForm = formDoc({ name: 'Builder application', status: 'closed', cooldownDays: 0 });
  const otherForm = formDoc({ name: 'Other workspace form' });
  const extra = {
    readOnly: fixtureKey(['applications:read']),
    writeOnly: fixtureKey(['applications:write']),
    activityOnly: fixtureKey(['activity:read', 'activity:write', 'staff:read']),
  };
  const featureOff = fixtureKey(['applications:read', 'applications:write']);
  const fixture = await seedReviewFixture(ctx, (f) => {
    f.workspace.forms = [form, closedForm];
    f.second.workspace.forms = [otherForm];
    for (const key of Object.values(extra)) addKey(f.workspace, key);
    f.workspace.applications!.push({
      id: newId(),
      name: 'Website',
      approved: true,
      allowedUniverseIds: [],
      features: { activity: true, applications: false },
      keys: [{ id: featureOff.id, environment: 'live', scopes: [...featureOff.scopes], secret: featureOff.secret }],
    });
  });
  return { ...fixture, keys: { ...fixture.keys, ...extra }, form, closedForm, otherForm, featureOff };
}

/** Re-applies `forms` to the fixture's workspace (a later provisioning document). */
export async function provisionForms(ctx: Pick<TestContext, 'store' | 'clock'>, fixture: IntakeFixture, forms: FormDocument[]) {
  await seed(ctx, { document: { workspaces: [{ ...fixture.workspace, forms }] } });
}

/** Gives the fixture's workspace these webhook endpoints (endpoints are configuration: a later document adds them). */
export async function provisionWebhooks(ctx: Pick<TestContext, 'store' | 'clock'>, fixture: IntakeFixture, webhooks: WebhookDocument[]) {
  await seed(ctx, { document: { workspaces: [{ ...fixture.workspace, webhooks }] } });
}

export interface IntakeWorld {
  ctx: TestContext;
  fixture: IntakeFixture;
  /** A dashboard token of REVIEWER_USER_ID (every permission). */
  token: string;
}

/** One app on a fresh database per file, the intake fixture seeded once, closed after the file. */
export function useIntakeWorld(kind: StoreKind): IntakeWorld {
  const world = {} as IntakeWorld;
  beforeAll(async () => {
    world.ctx = await createTestContext(kind);
    world.fixture = await seedIntakeFixture(world.ctx);
    world.token = await dashboardToken(REVIEWER_USER_ID);
  });
  afterAll(async () => {
    await world.ctx?.close();
  });
  return world;
}
