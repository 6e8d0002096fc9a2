import { readdirSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migratorFor } from '../../src/db/migrate.ts';
import { randomBase62 } from '../../src/shared/ids.ts';
import { POSTGRES_URL } from '../helpers/postgres.ts';
import { readStoredSchema } from '../helpers/schema.ts';
import { createTestDatabase, postgresAvailable, STORE_KINDS } from '../helpers/stores.ts';

/** Every migration of this build, in the order they apply: the files of src/db/migrations. */
const MIGRATIONS = readdirSync(new URL('../../src/db/migrations/', import.meta.url))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();

describe.each(STORE_KINDS)('migrations (%s)', (kind) => {
  it('apply once; a second run applies nothing and leaves the schema as it was', async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    const store = database.open();
    try {
      expect(await migrateToLatest(store)).toEqual({ applied: MIGRATIONS });
      const migrated = await readStoredSchema(store);
      expect(Object.keys(migrated.tables)).toContain('shifts');
      expect(Object.keys(migrated.indexes).length).toBeGreaterThan(10);
      expect(await migrateToLatest(store)).toEqual({ applied: [] });
      expect(await readStoredSchema(store)).toEqual(migrated);
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
      expect(await migrateToLatest(store)).toEqual({ applied: MIGRATIONS.filter((name) => name >= '20261126_0007') });
      const left = await store.db.selectFrom('idempotency_records').select(['key', 'state']).execute();
      expect(left).toEqual([{ key: 'done', state: 'completed' }]);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

describe.runIf(postgresAvailable)('migrations on a shared PostgreSQL database', () => {
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
          expect(await migrateToLatest(store)).toEqual({ applied: MIGRATIONS });
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
