import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/db/connect.ts';
import { DELETE_BATCH } from '../../../src/features/retention/service.ts';
import { planOf, statementsOf } from '../../db/query-plans.ts';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../../helpers/stores.ts';

const CUTOFF = DEFAULT_NOW - 180 * 86_400_000;

/** Each batch statement, and the index it must read its table by (migrations 0011 and 0012). */
const BATCHES = [
  ['webhook_attempts', 'webhook_attempts_started', DELETE_BATCH.webhook_attempts],
  ['webhook_deliveries', 'webhook_deliveries_finished', DELETE_BATCH.webhook_deliveries],
  ['webhook_events', 'webhook_events_created', DELETE_BATCH.webhook_events],
  ['events', 'events_created', DELETE_BATCH.events],
  ['commands', 'commands_created', DELETE_BATCH.commands],
  ['console_sign_in_codes', 'console_sign_in_codes_expires', DELETE_BATCH.console_sign_in_codes],
] as const;

describe.each(STORE_KINDS)('retention statement plans (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = database.open();
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it.each(BATCHES)('a batch of %s reads its oldest rows by index %s, and the rows it checks by index', async (_table, index, batch) => {
    const plan = await planOf(kind, store, await statementsOf(kind, (db) => batch(db, CUTOFF, 500)));
    expect(plan).toContain(index);
    if (kind === 'sqlite') {
      // A bare "SCAN t" reads a whole table; "SCAN t USING INDEX" walks an index in order.
      expect(plan).not.toMatch(/^SCAN \w+( AS \w+)?$/m);
    } else {
      expect(plan).not.toMatch(/"Node Type":"(Seq Scan|Hash Join|Merge Join|Sort)"/);
    }
  });
});
