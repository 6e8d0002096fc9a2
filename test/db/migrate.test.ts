import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migratorFor } from '../../src/db/migrate.ts';
import { randomBase62 } from '../../src/shared/ids.ts';
import { POSTGRES_URL } from '../helpers/postgres.ts';
import { createTestDatabase, STORE_KINDS } from '../helpers/stores.ts';

describe.each(STORE_KINDS)('migrations (%s)', (kind) => {
  it('apply once; a second run applies nothing and leaves the schema as it was', async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    const store = database.open();
    try {
      expect(await migrateToLatest(store)).toEqual({ applied: ['20261121_0001_initial', '20261121_0002_activity_version', '20261122_0003_heartbeat_hot_updates', '20261124_0004_activity_totals', '20261124_0005_webhooks', '20261125_0006_activity_changes', '20261126_0007_completed_idempotency_records', '20261127_0008_application_forms', '20261128_0009_inactivity_notice_requests', '20261129_0010_gateway_signing_key', '20261129_0011_retention_indexes', '20261129_0012_console_sign_in', '20261129_0013_notice_indexes', '20261129_0014_notice_overlap_index', '20261129_0015_journal_event_index', '20261206_0018_staff_roster_index'] });
      expect(await migrateToLatest(store)).toEqual({ applied: [] });
      const count = await store.db.selectFrom('shifts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

describe.each(STORE_KINDS)('upgrading a store (%s)', (kind) => {
  it('an idempotency record an earlier version left in progress is removed, completed results are kept', async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    const store = database.open();
    try {
      await (await migratorFor(store)).migrateTo('20261125_0006_activity_changes');
      const record = (key: string, state: string) => ({
        scope: 'user:u1',
        key,
        fingerprint: 'f',
        state,
        response_status: state === 'completed' ? 200 : null,
        response_body: state === 'completed' ? '{}' : null,
        request_id: 'req_0123456789abcdef',
        created_at: 1,
        locked_until: 2,
      });
      await store.db
        .insertInto('idempotency_records')
        .values([record('abandoned', 'in_progress'), record('done', 'completed')])
        .execute();
      expect(await migrateToLatest(store)).toEqual({ applied: ['20261126_0007_completed_idempotency_records', '20261127_0008_application_forms', '20261128_0009_inactivity_notice_requests', '20261129_0010_gateway_signing_key', '20261129_0011_retention_indexes', '20261129_0012_console_sign_in', '20261129_0013_notice_indexes', '20261129_0014_notice_overlap_index', '20261129_0015_journal_event_index', '20261206_0018_staff_roster_index'] });
      const left = await store.db.selectFrom('idempotency_records').select(['key', 'state']).execute();
      expect(left).toEqual([{ key: 'done', state: 'completed' }]);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

describe.skipIf(!STORE_KINDS.includes('postgres'))('migrations on a shared PostgreSQL database', () => {
  it('are not disturbed by other schemas being created and dropped at the same moment', async () => {
    // Other gateways or test runs sharing the database create and drop schemas all the time; the migrator must
    // only look at its own schema (the stock introspection reads every table and fails on a dropped one).
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    let churning = true;
    const churn = (async () => {
      while (churning) {
        const schema = `t_churn_${randomBase62(10).toLowerCase()}`;
        await admin.query(`create schema ${schema}`);
        await admin.query(`create table ${schema}.a (id serial primary key, b text)`);
        await admin.query(`create table ${schema}.c (id serial primary key, d text)`);
        await admin.query(`drop schema ${schema} cascade`);
      }
    })();
    try {
      for (let round = 0; round < 15; round += 1) {
        const database = await createTestDatabase('postgres', { migrate: false });
        const store = database.open();
        try {
          expect(await migrateToLatest(store)).toEqual({ applied: ['20261121_0001_initial', '20261121_0002_activity_version', '20261122_0003_heartbeat_hot_updates', '20261124_0004_activity_totals', '20261124_0005_webhooks', '20261125_0006_activity_changes', '20261126_0007_completed_idempotency_records', '20261127_0008_application_forms', '20261128_0009_inactivity_notice_requests', '20261129_0010_gateway_signing_key', '20261129_0011_retention_indexes', '20261129_0012_console_sign_in', '20261129_0013_notice_indexes', '20261129_0014_notice_overlap_index', '20261129_0015_journal_event_index', '20261206_0018_staff_roster_index'] });
          expect(await migrateToLatest(store)).toEqual({ applied: [] });
        } finally {
          await store.close();
          await database.drop();
        }
      }
    } finally {
      churning = false;
      await churn;
      await admin.end();
    }
    // Fifteen fresh databases migrated while others churn: slow on a busy machine, whatever the outcome.
  }, 120_000);
});
