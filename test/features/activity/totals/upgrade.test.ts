/**
 * A store that held shifts before the activity totals existed: the upgrade that creates them also fills them
 * from the shifts, so the reports of the new version read what the old one computed from the shifts.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../../src/db/connect.ts';
import { ACTIVITY_TOTALS_MIGRATION } from '../../../../src/db/migrate.ts';
import * as webhooks from '../../../../src/db/migrations/20261124_0005_webhooks.ts';
import * as activityChanges from '../../../../src/db/migrations/20261125_0006_activity_changes.ts';
import * as activityTotals from '../../../../src/db/migrations/20261124_0004_activity_totals.ts';
import * as applicationForms from '../../../../src/db/migrations/20261127_0008_application_forms.ts';
import * as noticeRequests from '../../../../src/db/migrations/20261128_0009_inactivity_notice_requests.ts';
import * as signingKey from '../../../../src/db/migrations/20261129_0010_gateway_signing_key.ts';
import * as retentionIndexes from '../../../../src/db/migrations/20261129_0011_retention_indexes.ts';
import * as consoleSignIn from '../../../../src/db/migrations/20261129_0012_console_sign_in.ts';
import * as noticeIndexes from '../../../../src/db/migrations/20261129_0013_notice_indexes.ts';
import * as noticeOverlapIndex from '../../../../src/db/migrations/20261129_0014_notice_overlap_index.ts';
import * as journalEventIndex from '../../../../src/db/migrations/20261129_0015_journal_event_index.ts';
import * as discord from '../../../../src/db/migrations/20261206_0016_discord.ts';
import * as ranks from '../../../../src/db/migrations/20261206_0017_ranks.ts';
import * as staffRosterIndex from '../../../../src/db/migrations/20261206_0018_staff_roster_index.ts';
import * as robloxCallWindows from '../../../../src/db/migrations/20261207_0019_roblox_call_windows.ts';
import { applyProvisioning } from '../../../../src/provisioning/apply.ts';
import { upgradeStore } from '../../../../src/runtime/upgrade.ts';
import { DEFAULT_NOW } from '../../../helpers/app.ts';
import { runCli } from '../../../helpers/cli.ts';
import { buildFixture, UNIVERSE_ID } from '../../../helpers/fixtures.ts';
import { STORE_KINDS, withTestStore, type TestDatabase } from '../../../helpers/stores.ts';

const WEBHOOKS_MIGRATION = '20261124_0005_webhooks';
const CHANGES_MIGRATION = '20261125_0006_activity_changes';
const RECORDS_MIGRATION = '20261126_0007_completed_idempotency_records';
const FORMS_MIGRATION = '20261127_0008_application_forms';
const NOTICES_MIGRATION = '20261128_0009_inactivity_notice_requests';
const SIGNING_KEY_MIGRATION = '20261129_0010_gateway_signing_key';
const RETENTION_MIGRATION = '20261129_0011_retention_indexes';
const CONSOLE_MIGRATION = '20261129_0012_console_sign_in';
const NOTICE_INDEXES_MIGRATION = '20261129_0013_notice_indexes';
const NOTICE_OVERLAP_MIGRATION = '20261129_0014_notice_overlap_index';
const JOURNAL_EVENT_MIGRATION = '20261129_0015_journal_event_index';
const LATER_MIGRATIONS = [
  ACTIVITY_TOTALS_MIGRATION,
  WEBHOOKS_MIGRATION,
  CHANGES_MIGRATION,
  RECORDS_MIGRATION,
  FORMS_MIGRATION,
  NOTICES_MIGRATION,
  SIGNING_KEY_MIGRATION,
  RETENTION_MIGRATION,
  CONSOLE_MIGRATION,
  NOTICE_INDEXES_MIGRATION,
  NOTICE_OVERLAP_MIGRATION,
  JOURNAL_EVENT_MIGRATION,
  '20261206_0016_discord',
  '20261206_0017_ranks',
  '20261206_0018_staff_roster_index',
  '20261207_0019_roblox_call_windows',
];

const HOUR = 60 * 60 * 1000;

describe.each(STORE_KINDS)('upgrading a store with shifts to the activity totals (%s)', (kind) => {
  let store: Store;
  let database: TestDatabase;
  withTestStore(kind, (opened, db) => {
    store = opened;
    database = db;
  });

  const totals = () =>
    store.db
      .selectFrom('activity_totals')
      .select(['workspace_id', 'environment', 'grain', 'bucket_start', 'staff_id', 'worked_ms', 'started_shifts', 'carried_shifts'])
      .orderBy('workspace_id')
      .orderBy('environment')
      .orderBy('grain')
      .orderBy('bucket_start')
      .orderBy('staff_id')
      .execute();

  /** The store as the previous version left it: shifts, and no totals (nor the migrations after them). */
  async function storeBeforeTotals(): Promise<Awaited<ReturnType<typeof totals>>> {
    const fixture = buildFixture({ timezone: 'Europe/Berlin' });
    const workspace = fixture.document.workspaces[0];
    if (!workspace) throw new Error('fixture without a workspace');
    const shift = (n: number, hours: number) => ({
      id: randomUUID(),
      staffId: fixture.ids.staff.alice,
      applicationId: fixture.ids.applicationId,
      environment: 'test' as const,
      startedAt: new Date(DEFAULT_NOW - 10 * 24 * HOUR + n * 7 * HOUR).toISOString(),
      endedAt: new Date(DEFAULT_NOW - 10 * 24 * HOUR + n * 7 * HOUR + hours * HOUR).toISOString(),
      endReason: 'manual' as const,
      universeId: UNIVERSE_ID,
      placeId: '7',
      serverId: 'srv-1',
    });
    await applyProvisioning(store.db, { workspaces: [{ ...workspace, shifts: [shift(1, 2), shift(2, 30), shift(8, 0)] }] }, { now: () => DEFAULT_NOW });
    const expected = await totals();
    expect(expected.length).toBeGreaterThan(0);

    // The store as the previous version left it: migrations 0004 (totals), 0005 (webhooks), 0006 (activity
    // changes), 0007 (completed idempotency records), 0008 (application forms), 0009 (inactivity notice
    // requests), 0010 (the gateway signing key), 0011 (retention indexes), 0012 (console sign-in), 0013 (the
    // notices' indexes), 0014 (the notices' overlap index) and 0015 (the journal's event index), which came
    // after it, not applied; nor 0016 (Discord), 0017 (ranks), 0018 (the roster's index) and 0019 (the Open Cloud
    // call windows).
    await robloxCallWindows.down(store.db as unknown as Parameters<typeof robloxCallWindows.down>[0]);
    await staffRosterIndex.down(store.db as unknown as Parameters<typeof staffRosterIndex.down>[0]);
    await ranks.down(store.db as unknown as Parameters<typeof ranks.down>[0]);
    await discord.down(store.db as unknown as Parameters<typeof discord.down>[0]);
    await journalEventIndex.down(store.db as unknown as Parameters<typeof journalEventIndex.down>[0]);
    await noticeOverlapIndex.down(store.db as unknown as Parameters<typeof noticeOverlapIndex.down>[0]);
    await noticeIndexes.down(store.db as unknown as Parameters<typeof noticeIndexes.down>[0]);
    await consoleSignIn.down(store.db as unknown as Parameters<typeof consoleSignIn.down>[0]);
    await retentionIndexes.down(store.db as unknown as Parameters<typeof retentionIndexes.down>[0]);
    await signingKey.down(store.db as unknown as Parameters<typeof signingKey.down>[0]);
    await noticeRequests.down(store.db as unknown as Parameters<typeof noticeRequests.down>[0]);
    await applicationForms.down(store.db as unknown as Parameters<typeof applicationForms.down>[0]);
    await activityChanges.down(store.db as unknown as Parameters<typeof activityChanges.down>[0]);
    await webhooks.down(store.db as unknown as Parameters<typeof webhooks.down>[0]);
    await activityTotals.down(store.db as unknown as Parameters<typeof activityTotals.down>[0]);
    await sql`delete from kysely_migration where name in (${sql.join(LATER_MIGRATIONS)})`.execute(store.db);
    return expected;
  }

  it('builds the totals of the existing shifts when it creates them', async () => {
    const expected = await storeBeforeTotals();
    const { applied } = await upgradeStore(store);
    expect(applied).toEqual(LATER_MIGRATIONS);
    expect(await totals()).toEqual(expected);
    expect((await upgradeStore(store)).applied).toEqual([]);
  });

  it('builds them too when the first command after the upgrade is a key or webhook command', async () => {
    const expected = await storeBeforeTotals();
    const listed = await runCli(['keys', 'list', '--database-url', database.url]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(await totals()).toEqual(expected);
  });
});
