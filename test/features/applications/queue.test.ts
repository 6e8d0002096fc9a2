import { describe, expect, it } from 'vitest';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { errorCode } from './helpers.ts';
import { headers, insertForm, insertSubmission, queueBody, queueUrl, useQueueWorld } from './queue-helpers.ts';

const MINUTE = 60_000;

describe.each(STORE_KINDS)('applications queue: paging and filters (%s)', (kind) => {
  const world = useQueueWorld(kind);

  const list = (query: Record<string, string | number> = {}) =>
    world.ctx.inject({ method: 'GET', url: queueUrl(query), headers: headers(world.token, world.workspaceId) });

  it('pages through the whole queue oldest first, with no duplicates and no gaps, ties broken by id', async () => {
    const formId = await insertForm(world.ctx, world.workspaceId, { name: 'Moderator' });
    const expected: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      // Groups of three share a createdAt, so the cursor must order by id within a timestamp.
      const createdAt = DEFAULT_NOW - 10 * 24 * 60 * MINUTE + Math.floor(i / 3) * MINUTE;
      const status = i % 2 === 0 ? 'submitted' : 'under_review';
      expected.push(await insertSubmission(world.ctx, { workspaceId: world.workspaceId, formId, status, createdAt }));
    }
    // Not in the default queue: decided, another environment, another workspace.
    await insertSubmission(world.ctx, { workspaceId: world.workspaceId, formId, status: 'accepted' });
    await insertSubmission(world.ctx, { workspaceId: world.workspaceId, formId, environment: 'test' });
    await insertSubmission(world.ctx, { workspaceId: world.fixture.second.ids.workspaceId });

    const seen: string[] = [];
    const createdAts: string[] = [];
    let cursor: Record<string, string> = {};
    let pages = 0;
    for (;;) {
      const res = await list({ limit: 5, ...cursor });
      expect(res.statusCode).toBe(200);
      const { data } = queueBody(res);
      pages += 1;
      seen.push(...data.submissions.map((s) => s.id));
      createdAts.push(...data.submissions.map((s) => s.createdAt));
      expect(data.submissions.every((s) => s.formId === formId && s.formName === 'Moderator')).toBe(true);
      if (data.nextCursor === null) break;
      const last = data.submissions[data.submissions.length - 1]!;
      expect(data.nextCursor).toEqual({ cursorCreatedAt: last.createdAt, cursorId: last.id });
      cursor = data.nextCursor;
      expect(pages).toBeLessThan(10);
    }
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(seen.length);
    const byTimeThenId = expected
      .map((id, i) => ({ id, at: Math.floor(i / 3) }))
      .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
      .map((e) => e.id);
    expect(seen).toEqual(byTimeThenId);
    expect([...createdAts].sort()).toEqual(createdAts);
  });

  it('a page that ends exactly at the last submission has nextCursor null', async () => {
    for (let i = 0; i < 4; i += 1) await insertSubmission(world.ctx, { workspaceId: world.workspaceId, createdAt: DEFAULT_NOW - (i + 1) * MINUTE });
    const first = queueBody(await list({ limit: 2 }));
    expect(first.data.submissions).toHaveLength(2);
    expect(first.data.nextCursor).not.toBeNull();
    const second = queueBody(await list({ limit: 2, ...first.data.nextCursor! }));
    expect(second.data.submissions).toHaveLength(2);
    expect(second.data.nextCursor).toBeNull();
    const empty = queueBody(await list({ limit: 2, ...{ cursorCreatedAt: second.data.submissions[1]!.createdAt, cursorId: second.data.submissions[1]!.id } }));
    expect(empty.data).toEqual({ submissions: [], nextCursor: null });
  });

  it('the default page is 25 submissions', async () => {
    for (let i = 0; i < 27; i += 1) await insertSubmission(world.ctx, { workspaceId: world.workspaceId, createdAt: DEFAULT_NOW - (i + 1) * MINUTE });
    const body = queueBody(await list());
    expect(body.data.submissions).toHaveLength(25);
    expect(body.data.nextCursor).not.toBeNull();
    expect(queueBody(await list({ limit: 100 })).data.submissions).toHaveLength(27);
  });

  it('the default statuses are submitted and under_review; status takes one or a list', async () => {
    const ids: Record<string, string> = {};
    for (const [i, status] of (['submitted', 'under_review', 'accepted', 'rejected'] as const).entries()) {
      ids[status] = await insertSubmission(world.ctx, { workspaceId: world.workspaceId, status, createdAt: DEFAULT_NOW - (10 - i) * MINUTE });
    }
    const statuses = async (query: Record<string, string> = {}) =>
      queueBody(await list(query)).data.submissions.map((s) => s.status);
    expect(await statuses()).toEqual(['submitted', 'under_review']);
    expect(await statuses({ status: 'accepted' })).toEqual(['accepted']);
    expect(await statuses({ status: 'rejected,accepted' })).toEqual(['accepted', 'rejected']);
    expect(await statuses({ status: 'submitted,under_review,accepted,rejected' })).toEqual([
      'submitted',
      'under_review',
      'accepted',
      'rejected',
    ]);
    expect(await statuses({ status: 'submitted,submitted' })).toEqual(['submitted']);
  });

  it('formId keeps one form\'s submissions; a well-formed formId of no form gives an empty page', async () => {
    const a = await insertForm(world.ctx, world.workspaceId, { name: 'A' });
    const b = await insertForm(world.ctx, world.workspaceId, { name: 'B' });
    const inA = await insertSubmission(world.ctx, { workspaceId: world.workspaceId, formId: a });
    await insertSubmission(world.ctx, { workspaceId: world.workspaceId, formId: b });
    await insertSubmission(world.ctx, { workspaceId: world.workspaceId, formId: null });
    const otherForm = await insertForm(world.ctx, world.fixture.second.ids.workspaceId);
    await insertSubmission(world.ctx, { workspaceId: world.fixture.second.ids.workspaceId, formId: otherForm });

    expect(queueBody(await list({ formId: a })).data.submissions.map((s) => s.id)).toEqual([inA]);
    expect(queueBody(await list({ formId: a.toUpperCase() })).data.submissions.map((s) => s.id)).toEqual([inA]);
    expect(queueBody(await list({ formId: '00000000-0000-4000-8000-000000000000' })).data).toEqual({
      submissions: [],
      nextCursor: null,
    });
    // Another workspace's form names nothing in this one.
    expect(queueBody(await list({ formId: otherForm })).data.submissions).toEqual([]);
    const all = queueBody(await list()).data.submissions;
    expect(all).toHaveLength(3);
    expect(all.find((s) => s.formId === null)?.formName).toBeNull();
  });

  it('environment selects live (default) or test submissions', async () => {
    const live = await insertSubmission(world.ctx, { workspaceId: world.workspaceId, environment: 'live' });
    const test = await insertSubmission(world.ctx, { workspaceId: world.workspaceId, environment: 'test' });
    expect(queueBody(await list()).data.submissions.map((s) => s.id)).toEqual([live]);
    expect(queueBody(await list({ environment: 'live' })).data.submissions.map((s) => s.id)).toEqual([live]);
    const tests = queueBody(await list({ environment: 'test' })).data.submissions;
    expect(tests.map((s) => [s.id, s.environment])).toEqual([[test, 'test']]);
  });

  it('an item carries every field, unsent applicant fields null', async () => {
    const formId = await insertForm(world.ctx, world.workspaceId, { name: 'Builder' });
    const id = await insertSubmission(world.ctx, {
      workspaceId: world.workspaceId,
      formId,
      status: 'under_review',
      createdAt: DEFAULT_NOW - MINUTE,
      applicant: { gameUserId: '261', gameUsername: 'builderman' },
    });
    const [item] = queueBody(await list()).data.submissions;
    expect(item).toEqual({
      id,
      formId,
      formName: 'Builder',
      status: 'under_review',
      environment: 'live',
      applicant: { gameUserId: '261', gameUsername: 'builderman', displayName: null, chatUserId: null },
      score: null,
      createdAt: new Date(DEFAULT_NOW - MINUTE).toISOString(),
      reviewedAt: new Date(DEFAULT_NOW - MINUTE + 1000).toISOString(),
      decidedAt: null,
    });
  });

  it.each([
    ['limit=0', { limit: 0 }],
    ['limit=101', { limit: 101 }],
    ['limit=abc', { limit: 'abc' }],
    ['limit=1e1', { limit: '1e1' }],
    ['a status not of the four', { status: 'pending' }],
    ['an empty status', { status: '' }],
    ['a status list with an empty entry', { status: 'submitted,' }],
    ['a malformed formId', { formId: 'not-a-uuid' }],
    ['an unknown environment', { environment: 'staging' }],
    ['cursorCreatedAt alone', { cursorCreatedAt: '2026-03-01T00:00:00.000Z' }],
    ['cursorId alone', { cursorId: '00000000-0000-4000-8000-000000000000' }],
    ['a malformed cursorCreatedAt', { cursorCreatedAt: 'yesterday', cursorId: '00000000-0000-4000-8000-000000000000' }],
    ['a cursorCreatedAt without an offset', { cursorCreatedAt: '2026-03-01T00:00:00', cursorId: '00000000-0000-4000-8000-000000000000' }],
    ['a malformed cursorId', { cursorCreatedAt: '2026-03-01T00:00:00.000Z', cursorId: 'abc' }],
  ])('%s is 400 validation_failed', async (_name, query) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('validation_failed');
  });
});
