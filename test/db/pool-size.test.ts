import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/connect.ts';
import { startServer } from '../../src/server.ts';
import { ConfigError, loadConfig } from '../../src/shared/config.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/stores.ts';

/** How many connections the store's pool holds at most: more statements at once than that share them. */
async function connectionsInUse(store: Store, statements: number): Promise<number> {
  const pids = await Promise.all(
    Array.from({ length: statements }, async () => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.2)`.execute(store.db);
      return rows[0]?.pid;
    }),
  );
  return new Set(pids).size;
}

describe.runIf(postgresAvailable)('DATABASE_POOL_SIZE on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('a store opened with a pool size never holds more connections than that', async () => {
    const store = openStore(database.url, { poolSize: 3 });
    try {
      expect(await connectionsInUse(store, 8)).toBe(3);
    } finally {
      await store.close();
    }
  });

  it("the server's store takes its pool size from the configuration", async () => {
    const config = testConfig({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '2', PORT: '0' });
    expect(config.databasePoolSize).toBe(2);
    const server = await startServer(config);
    try {
      expect(await connectionsInUse(server.store, 6)).toBe(2);
    } finally {
      await server.stop();
    }
  });
});

describe('DATABASE_POOL_SIZE setting', () => {
  it('is 10 by default and reads 1 to 100', () => {
    expect(loadConfig({ BUILD_ID: 'b' }).databasePoolSize).toBe(10);
    expect(loadConfig({ BUILD_ID: 'b', DATABASE_POOL_SIZE: '1' }).databasePoolSize).toBe(1);
    expect(loadConfig({ BUILD_ID: 'b', DATABASE_POOL_SIZE: '100' }).databasePoolSize).toBe(100);
  });

  it.each(['0', '101', 'ten', '-1', '2.5'])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ BUILD_ID: 'b', DATABASE_POOL_SIZE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ BUILD_ID: 'b', DATABASE_POOL_SIZE: value })).toThrow(/^DATABASE_POOL_SIZE must be/);
  });
});
