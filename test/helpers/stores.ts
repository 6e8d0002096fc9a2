import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { openStore, type Store } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { randomBase62 } from '../../src/shared/ids.ts';
import { POSTGRES_URL, urlWithSchema } from './postgres.ts';

export type StoreKind = 'sqlite' | 'postgres';

/** Whether a PostgreSQL server answered when the run began (vitest.config.ts, test/helpers/prerequisites.ts). */
export const postgresAvailable = inject('prerequisites').postgres;

/**
 * Every store a suite runs on: `describe.each(STORE_KINDS)('… (%s)', …)`. The title names the store in
 * parentheses, `(postgres)` or `(postgres, …)`: where no PostgreSQL server answers, the configuration's name pattern
 * skips those runs, and Vitest reports their tests as skipped (test/helpers/prerequisites.ts).
 */
export const STORE_KINDS: StoreKind[] = ['sqlite', 'postgres'];

export interface TestDatabase {
  readonly kind: StoreKind;
  /** DATABASE_URL that reaches this fresh database (a temp SQLite file, or a fresh PostgreSQL schema). */
  readonly url: string;
  /** Opens another connection to the same database (another "instance"). */
  open(): Store;
  drop(): Promise<void>;
}

async function migrated(url: string): Promise<void> {
  const store = openStore(url);
  try {
    await migrateToLatest(store);
  } finally {
    await store.close();
  }
}

/** A fresh, migrated database of the given kind, private to the caller. */
export async function createTestDatabase(kind: StoreKind, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'wsg-test-'));
    const url = `sqlite:${join(dir, 'gateway.db')}`;
    if (migrate) await migrated(url);
    return {
      kind,
      url,
      open: () => openStore(url),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomBase62(12).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = urlWithSchema(POSTGRES_URL, schema);
  if (migrate) await migrated(url);
  return {
    kind,
    url,
    open: () => openStore(url),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * A fresh, migrated database of `kind` for the enclosing `describe`: made and its store opened before the block's
 * tests (both handed to `opened`), the store closed and the database dropped after them. Call it where the block's
 * own setup begins: hooks registered after it run after it, and their after-hooks before it closes.
 */
export function withTestStore(kind: StoreKind, opened: (store: Store, database: TestDatabase) => void): void {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = database.open();
    opened(store, database);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
}
