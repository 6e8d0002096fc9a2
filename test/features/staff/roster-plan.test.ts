/**
 * A roster page reads the workspace's staff in order through index staff_roster (display name then id by code
 * points, migration 0018), instead of sorting every staff member of the workspace: on PostgreSQL with the `"C"`
 * collation the query compares them by.
 */
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/db/connect.ts';
import { listStaffPage } from '../../../src/features/staff/profiles.ts';
import { applyProvisioning } from '../../../src/provisioning/apply.ts';
import { planOf, statementsOf } from '../../db/query-plans.ts';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { buildFixture } from '../../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../../helpers/stores.ts';

describe.each(STORE_KINDS)('the roster page\'s read (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;
  const fixture = buildFixture();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = database.open();
    fixture.workspace.staff = Array.from({ length: 400 }, (_, i) => ({
      id: crypto.randomUUID(),
      displayName: `Staff ${String((i * 7919) % 400).padStart(3, '0')}`,
      gameUserId: String(500_000 + i),
      gameUsername: `staff_${i}`,
      status: i % 10 === 0 ? ('inactive' as const) : ('active' as const),
    }));
    await applyProvisioning(store.db, fixture.document, { now: () => DEFAULT_NOW });
    if (kind === 'postgres') await store.db.executeQuery(CompiledQuery.raw('analyze'));
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  const filter = { statuses: ['active'], departmentId: null, rank: null, limit: 26 };

  it.each([
    ['the first page', null],
    ['a later page', { displayName: 'Staff 200', id: '00000000-0000-4000-8000-000000000000' }],
  ])('%s reads the index in order, with no sort', async (_, after) => {
    const statements = await statementsOf(kind, (db) => listStaffPage(db, fixture.ids.workspaceId, { ...filter, after }));
    const plan = await planOf(kind, store, statements);
    expect(plan).toContain('staff_roster');
    expect(plan.toLowerCase()).not.toMatch(/temp b-tree|"node type":"sort"/);
    const page = await listStaffPage(store.db, fixture.ids.workspaceId, { ...filter, after });
    expect(page).toHaveLength(26);
    const names = page.map((p) => p.displayName);
    expect(names).toEqual([...names].sort());
    if (after) expect(names[0] && names[0] > after.displayName).toBe(true);
  });
});
