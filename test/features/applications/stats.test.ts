import { describe, expect, it } from 'vitest';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { errorCode } from './helpers.ts';
import { headers, insertForm, insertSubmission, useQueueWorld } from './queue-helpers.ts';

const zeros = { submitted: 0, underReview: 0, accepted: 0, rejected: 0 };

describe.each(STORE_KINDS)('applications stats (%s)', (kind) => {
  const world = useQueueWorld(kind);

  const stats = async (query = '') => {
    const res = await world.ctx.inject({ method: 'GET', url: `/v1/applications/stats${query}`, headers: headers(world.token, world.workspaceId) });
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: { forms: unknown[] } }).data.forms;
  };

  it('a workspace without forms or submissions has no rows', async () => {
    expect(await stats()).toEqual([]);
  });

  it('every form is listed, zeros included, by name then id; no null row without formless submissions', async () => {
    const beta = await insertForm(world.ctx, world.workspaceId, { name: 'beta' });
    const zulu = await insertForm(world.ctx, world.workspaceId, { name: 'Zulu' });
    const alpha = await insertForm(world.ctx, world.workspaceId, { name: 'Alpha', status: 'closed' });
    const twins = [
      await insertForm(world.ctx, world.workspaceId, { name: 'Twin' }),
      await insertForm(world.ctx, world.workspaceId, { name: 'Twin' }),
    ].sort();
    await insertForm(world.ctx, world.fixture.second.ids.workspaceId, { name: 'Other workspace' });
    // Names compare character by character (capitals first), whatever the database's collation.
    expect(await stats()).toEqual([
      { formId: alpha, formName: 'Alpha', ...zeros },
      { formId: twins[0], formName: 'Twin', ...zeros },
      { formId: twins[1], formName: 'Twin', ...zeros },
      { formId: zulu, formName: 'Zulu', ...zeros },
      { formId: beta, formName: 'beta', ...zeros },
    ]);
  });

  it('counts each status per form, plus one null row for submissions without a form, in the chosen environment', async () => {
    const mod = await insertForm(world.ctx, world.workspaceId, { name: 'Moderator' });
    const empty = await insertForm(world.ctx, world.workspaceId, { name: 'Trainer' });
    const add = (formId: string | null, status: 'submitted' | 'under_review' | 'accepted' | 'rejected', environment: 'live' | 'test' = 'live') =>
      insertSubmission(world.ctx, { workspaceId: world.workspaceId, formId, status, environment });
    await add(mod, 'submitted');
    await add(mod, 'submitted');
    await add(mod, 'under_review');
    await add(mod, 'accepted');
    await add(mod, 'rejected');
    await add(mod, 'rejected');
    await add(null, 'accepted');
    await add(mod, 'submitted', 'test');
    await insertSubmission(world.ctx, { workspaceId: world.fixture.second.ids.workspaceId, status: 'submitted' });

    expect(await stats()).toEqual([
      { formId: mod, formName: 'Moderator', submitted: 2, underReview: 1, accepted: 1, rejected: 2 },
      { formId: empty, formName: 'Trainer', ...zeros },
      { formId: null, formName: null, ...zeros, accepted: 1 },
    ]);
    expect(await stats('?environment=live')).toEqual(await stats());
    expect(await stats('?environment=test')).toEqual([
      { formId: mod, formName: 'Moderator', ...zeros, submitted: 1 },
      { formId: empty, formName: 'Trainer', ...zeros },
    ]);
  });

  it('an unknown environment is 400 validation_failed', async () => {
    const res = await world.ctx.inject({
      method: 'GET',
      url: '/v1/applications/stats?environment=prod',
      headers: headers(world.token, world.workspaceId),
    });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('validation_failed');
  });
});
