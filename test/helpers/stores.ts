import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { randomBase62 } from '../../src/shared/ids.ts';
import { POSTGRES_URL, probePostgres, urlWithSchema } from './postgres.ts';

export type StoreKind = 'sqlite' | 'postgres';

export const postgresAvailable = await probePostgres();

/** Every store the suite runs on here: SQLite always, PostgreSQL wherever a server answers. */
export const STORE_KINDS: StoreKind[] = postgresAvailable ? ['sqlite', 'postgres'] : ['sqlite'];

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
