import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listQueue } from '../../../src/features/applications/queue/repository.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { recordingDb } from '../../db/sql-samples.ts';
import { seedReviewFixture } from './helpers.ts';
import { insertForm, insertSubmission } from './queue-helpers.ts';

const DECIDED = 2000;
const PENDING = 10;

/**
 * The default queue (the pending submissions, a few among many decided ones) reads the pending rows alone through
 * the partial index `submissions_queue_pending`, on both stores: without it, a page walks every decided submission
 * older than the oldest pending one (about 100,000 in a busy community's year).
 */
describe.each(STORE_KINDS)('the queue plan (%s)', (kind) => {
  let ctx: TestContext;
  let workspaceId: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    workspaceId = (await seedReviewFixture(ctx)).ids.workspaceId;
    const formId = await insertForm(ctx, workspaceId);
    for (let i = 0; i < DECIDED + PENDING; i += 1) {
      const status = i >= DECIDED ? 'submitted' : i % 2 === 0 ? 'accepted' : 'rejected';
      await insertSubmission(ctx, { workspaceId, formId, status, createdAt: DEFAULT_NOW - (DECIDED + PENDING - i) * 60_000 });
    }
    if (kind === 'postgres') await sql`analyze submissions`.execute(ctx.store.db);
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function planOf(statuses: readonly string[]): Promise<string> {
    const queries: CompiledQuery[] = [];
    await listQueue(recordingDb(kind, queries), { workspaceId, environment: 'live', statuses, formId: null, after: null, limit: 26 });
    const query = queries[0];
    if (!query) throw new Error('listQueue ran no query');
    const explain = kind === 'sqlite' ? 'explain query plan ' : 'explain (format json) ';
    const { rows } = await ctx.store.db.executeQuery(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
    return JSON.stringify(rows);
  }

  it('the default statuses (both pending ones) walk the partial index of pending submissions', async () => {
    expect(await planOf(['submitted', 'under_review'])).toContain('submissions_queue_pending');
  });

  // SQLite has no statistics and always takes the index that gives the order, unless the partial one applies;
  // PostgreSQL may read one pending status's rows by (workspace, status) and sort the few it finds.
  const PENDING_ONLY = kind === 'sqlite' ? /submissions_queue_pending/ : /submissions_queue_pending|submissions_workspace_status/;

  it('one pending status reads pending submissions only', async () => {
    expect(await planOf(['under_review'])).toMatch(PENDING_ONLY);
  });

  it('other statuses do not use the partial index', async () => {
    expect(await planOf(['accepted', 'rejected'])).not.toContain('submissions_queue_pending');
    expect(await planOf(['submitted', 'accepted', 'under_review', 'rejected'])).not.toContain('submissions_queue_pending');
  });
});
