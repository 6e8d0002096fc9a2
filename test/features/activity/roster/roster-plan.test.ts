/**
 * A roster page is one statement (roster/repository.ts, listRosterPage) that reads the workspace's staff in order
 * through index staff_roster (display name then id by code points, migration 0018) instead of sorting every staff
 * member of the workspace (on PostgreSQL with the `"C"` collation the query compares them by), and finds each
 * staff member's week by index: their row of the week's bucket by staff member, their shifts under way through
 * shifts_staff_ended, their notices through inactivity_notices_staff_end. Never through the partial indexes of the
 * workspace's shifts under way, which would read all of them for each staff member, even when PostgreSQL's
 * statistics say there are none.
 */
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../../src/db/connect.ts';
import { weekPeriod } from '../../../../src/features/activity/periods/periods.ts';
import { listRosterPage } from '../../../../src/features/activity/roster/repository.ts';
import { applyProvisioning } from '../../../../src/provisioning/apply.ts';
import { planOf, statementsOf } from '../../../db/query-plans.ts';
import { DEFAULT_NOW } from '../../../helpers/app.ts';
import { buildFixture } from '../../../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../../../helpers/stores.ts';
import { addHistory, completedShift, notice } from '../reports/helpers.ts';

const DAY = 86_400_000;
const WEEK = weekPeriod(DEFAULT_NOW, 'UTC');

describe.each(STORE_KINDS)('the roster page\'s read (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;
  const fixture = buildFixture();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = database.open();
    const staff = Array.from({ length: 400 }, (_, i) => ({
      id: crypto.randomUUID(),
      displayName: `Staff ${String((i * 7919) % 400).padStart(3, '0')}`,
      gameUserId: String(500_000 + i),
      gameUsername: `staff_${i}`,
      status: i % 10 === 0 ? ('inactive' as const) : ('active' as const),
    }));
    fixture.workspace.staff = staff;
    const iso = (ms: number) => new Date(ms).toISOString();
    addHistory(fixture, {
      shifts: staff.flatMap((member, i) =>
        Array.from({ length: 5 }, (_, k) => {
          const start = DEFAULT_NOW - (k * 3 + (i % 3)) * DAY;
          return completedShift(fixture, member.id, iso(start), iso(start + 2 * 3_600_000), 'live');
        }),
      ),
      // Each staff member's past notices, and a current one for some.
      notices: staff.flatMap((member, i) => [
        ...Array.from({ length: 6 }, (_, k) => {
          const start = DEFAULT_NOW - (k + 2) * 7 * DAY;
          return notice(member.id, iso(start), iso(start + DAY));
        }),
        ...(i % 20 === 0 ? [notice(member.id, iso(DEFAULT_NOW - DAY), iso(DEFAULT_NOW + DAY))] : []),
      ]),
    });
    await applyProvisioning(store.db, fixture.document, { now: () => DEFAULT_NOW });
    // Statistics taken with no shift under way (as they usually nearly are: such shifts are a sliver of the table),
    // then a shift under way for most staff members.
    if (kind === 'postgres') await store.db.executeQuery(CompiledQuery.raw('analyze'));
    await store.db
      .insertInto('shifts')
      .values(
        staff.slice(0, 300).map((member) => ({
          id: crypto.randomUUID(),
          workspace_id: fixture.ids.workspaceId,
          application_id: fixture.ids.applicationId,
          environment: 'live' as const,
          staff_id: member.id,
          universe_id: '42',
          place_id: '7',
          server_id: 'srv-1',
          status: 'active',
          started_at: DEFAULT_NOW - 60_000,
          last_heartbeat_at: DEFAULT_NOW - 30_000,
          last_seen_at: DEFAULT_NOW - 30_000,
          ended_at: null,
          end_reason: null,
          created_at: DEFAULT_NOW - 60_000,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  const filter = { statuses: ['active'], departmentId: null, rank: null, limit: 26 };
  const audience = () => ({ workspaceId: fixture.ids.workspaceId, environment: 'live' as const });

  it.each([
    ['the first page', null],
    ['a later page', { displayName: 'Staff 200', id: '00000000-0000-4000-8000-000000000000' }],
  ])('%s reads the index in order, with no sort, and each week by index', async (_, after) => {
    const statements = await statementsOf(kind, (db) => listRosterPage(db, audience(), { ...filter, after }, WEEK));
    expect(statements).toHaveLength(1);
    const plan = await planOf(kind, store, statements);
    for (const index of ['staff_roster', 'shifts_staff_ended', 'inactivity_notices_staff_end']) expect(plan).toContain(index);
    expect(plan).toMatch(kind === 'sqlite' ? /SEARCH t USING INDEX sqlite_autoindex_activity_totals_1 \(workspace_id=\? AND environment=\? AND grain=\? AND bucket_start=\? AND staff_id=\?\)/ : /"Index Name":"activity_totals_(pk|staff)"[^}]*"Index Cond":"[^"]*staff_id = s\.id/);
    expect(plan.toLowerCase()).not.toMatch(/temp b-tree|"node type":"sort"|"node type":"seq scan","parent relationship":"outer","parallel aware":false,"async capable":false,"relation name":"shifts"|shifts_active_by_start|shifts_one_active|scan a\b/);
    const page = await listRosterPage(store.db, audience(), { ...filter, after }, WEEK);
    expect(page).toHaveLength(26);
    const names = page.map((row) => row.profile.displayName);
    expect(names).toEqual([...names].sort());
    if (after) expect(names[0] && names[0] > after.displayName).toBe(true);
  });
});
