import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/connect.ts';
import * as noticeRequests from '../../src/db/migrations/20261128_0009_inactivity_notice_requests.ts';
import * as noticeOverlapIndex from '../../src/db/migrations/20261129_0014_notice_overlap_index.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import { notice } from '../features/activity/reports/helpers.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture } from '../helpers/fixtures.ts';
import { STORE_KINDS, withTestStore } from '../helpers/stores.ts';

describe.each(STORE_KINDS)('the inactivity notice requests migration (%s)', (kind) => {
  let store: Store;
  withTestStore(kind, (opened) => {
    store = opened;
  });

  it('makes the notices an earlier version stored live, provisioned and undecided, created at the migration\'s time', async () => {
    const fixture = buildFixture();
    const written = notice(fixture.ids.staff.alice, '2030-01-01T00:00:00Z', '2030-01-02T00:00:00Z', 'approved', 'exams');
    fixture.workspace.inactivityNotices = [written];
    await applyProvisioning(store.db, fixture.document, { now: () => DEFAULT_NOW });
    const asUnknown = store.db as unknown as Parameters<typeof noticeRequests.up>[0];
    // The store as it was before: the later migration that replaced one of this one's indexes undone first.
    await noticeOverlapIndex.down(asUnknown);
    await noticeRequests.down(asUnknown);
    const before = Date.now();
    await noticeRequests.up(asUnknown);
    await noticeOverlapIndex.up(asUnknown);
    const row = await store.db.selectFrom('inactivity_notices').selectAll().where('id', '=', written.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ environment: 'live', origin: 'provisioned', decided_at: null, decision_note: null, decided_by: null, status: 'approved' });
    expect(Number(row.created_at)).toBeGreaterThanOrEqual(before);
    expect(Number(row.created_at)).toBeLessThanOrEqual(Date.now());
    const workspace = await store.db.selectFrom('workspaces').select('max_notice_days').where('id', '=', fixture.ids.workspaceId).executeTakeFirstOrThrow();
    expect(Number(workspace.max_notice_days)).toBe(30);
  });
});
