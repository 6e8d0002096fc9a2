/**
 * The overlap checks read a staff member's notices by their end (index inactivity_notices_staff_end), bounded by
 * `ends_at > start`: a staff member with a long history of notices that are over has only the few not yet over
 * read, whatever the length of that history.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/db/connect.ts';
import type { Database } from '../../../src/db/types.ts';
import { findApprovedNotices } from '../../../src/features/activity/reports/repository.ts';
import * as notices from '../../../src/features/time-off/repository.ts';
import { applyProvisioning } from '../../../src/provisioning/apply.ts';
import { planOf, statementsOf } from '../../db/query-plans.ts';
import { notice } from '../activity/reports/helpers.ts';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { buildFixture } from '../../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../../helpers/stores.ts';

const DAY = 86_400_000;
const INDEX = 'inactivity_notices_staff_end';

describe.each(STORE_KINDS)('the overlap checks of inactivity notices read by end (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;
  const fixture = buildFixture();
  const alice = fixture.ids.staff.alice;
  // The span checked starts after every notice of the data.
  const start = DEFAULT_NOW + DAY;
  const end = start + DAY;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = database.open();
    // 60 more staff members, and for each of them and alice half a year of notices that are over: a day each,
    // every other day.
    const alicesDoc = fixture.staff.alice;
    const others = Array.from({ length: 60 }, (_, i) => ({
      ...alicesDoc,
      id: crypto.randomUUID(),
      gameUserId: String(900_000 + i),
      gameUsername: `staff_${i}`,
      chatUserId: String(800_000 + i),
    }));
    fixture.workspace.staff = [...(fixture.workspace.staff ?? []), ...others];
    fixture.workspace.inactivityNotices = [alice, ...others.map((other) => other.id)].flatMap((staffId) =>
      Array.from({ length: 90 }, (_, i) => {
        const at = DEFAULT_NOW - (i + 1) * 2 * DAY;
        return notice(staffId, new Date(at).toISOString(), new Date(at + DAY).toISOString(), i % 2 === 0 ? 'approved' : 'pending');
      }),
    );
    await applyProvisioning(store.db, fixture.document, { now: () => DEFAULT_NOW });
    // PostgreSQL's statistics, as autovacuum keeps them; SQLite's service never gathers any.
    if (kind === 'postgres') await store.db.executeQuery(CompiledQuery.raw('analyze'));
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  const clash: notices.OverlapQuery = {
    staffId: alice,
    environment: 'live',
    statuses: ['pending', 'approved'],
    start,
    end,
    exceptId: null,
  };
  const row: notices.NoticeRow = {
    id: '0196f5d2-0000-7000-8000-000000000001',
    workspace_id: fixture.ids.workspaceId,
    staff_id: alice,
    starts_at: start,
    ends_at: end,
    reason: 'exams',
    status: 'pending',
    environment: 'live',
    created_at: DEFAULT_NOW,
    decided_at: null,
    decision_note: null,
    decided_by: null,
    origin: 'api',
  };
  const statements: [string, (db: Kysely<Database>) => Promise<unknown>][] = [
    ['a request', (db) => notices.insertNoticeIfClear(db, row)],
    ['the overlapping notice named in a refusal', (db) => notices.findOverlappingNotice(db, clash)],
    [
      'an approval',
      (db) =>
        notices.updateNoticeIf(db, row.id, { status: 'pending', clearOf: { ...clash, statuses: ['approved'], exceptId: row.id } }, { status: 'approved' }),
    ],
    ['a report', (db) => findApprovedNotices(db, 'live', [alice], { start, end })],
  ];

  it.each(statements)('%s checks the overlap by index, bounded by the end', async (_name, run) => {
    const sent = await statementsOf(kind, run);
    expect(sent).toHaveLength(1);
    const plan = await planOf(kind, store, sent);
    expect(plan).toContain(INDEX);
    if (kind === 'sqlite') {
      expect(plan).toContain(`USING INDEX ${INDEX} (staff_id=? AND environment=? AND ends_at>?)`);
    } else {
      expect(plan).toMatch(/"Index Cond":"\([^"]*ends_at > /);
    }
  });
});
