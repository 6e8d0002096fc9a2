import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/connect.ts';
import type { Environment } from '../../src/shared/actor.ts';
import * as applicationForms from '../../src/db/migrations/20261127_0008_application_forms.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import { submissionDoc } from '../features/applications/helpers.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture } from '../helpers/fixtures.ts';
import { STORE_KINDS, withTestStore } from '../helpers/stores.ts';

describe.each(STORE_KINDS)('the application forms migration (%s)', (kind) => {
  let store: Store;
  withTestStore(kind, (opened) => {
    store = opened;
  });

  async function provisionedSubmission(): Promise<{ id: string; gameUserId: string }> {
    const fixture = buildFixture();
    const workspace = fixture.document.workspaces[0];
    if (!workspace) throw new Error('fixture without a workspace');
    const submission = submissionDoc();
    await applyProvisioning(store.db, { workspaces: [{ ...workspace, submissions: [submission] }] }, { now: () => DEFAULT_NOW });
    return { id: submission.id, gameUserId: submission.applicant.gameUserId };
  }

  it('gives a submission an earlier version stored its applicant\'s game user id, the live environment and no form', async () => {
    const { id, gameUserId } = await provisionedSubmission();
    const asUnknown = store.db as unknown as Parameters<typeof applicationForms.up>[0];
    await applicationForms.down(asUnknown);
    await applicationForms.up(asUnknown);
    const row = await store.db.selectFrom('submissions').select(['form_id', 'environment', 'game_user_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ form_id: null, environment: 'live', game_user_id: gameUserId });
  });

  it('lets one applicant hold one pending submission per form and environment, and any number of decided ones', async () => {
    const { id } = await provisionedSubmission();
    const original = await store.db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const formId = randomUUID();
    const copy = (status: string, environment: Environment) => ({ ...original, id: randomUUID(), form_id: formId, status, environment });
    await store.db.insertInto('submissions').values(copy('submitted', 'live')).execute();
    await expect(store.db.insertInto('submissions').values(copy('under_review', 'live')).execute()).rejects.toThrow(/unique/i);
    await store.db.insertInto('submissions').values(copy('submitted', 'test')).execute();
    await store.db.insertInto('submissions').values([copy('rejected', 'live'), copy('accepted', 'live')]).execute();
    const counted = await sql<{ n: number | string }>`select count(*) as n from submissions where form_id = ${formId}`.execute(store.db);
    expect(Number(counted.rows[0]?.n)).toBe(4);
  });
});
