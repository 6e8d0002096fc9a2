import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { loadConfig, type Config } from '../../src/shared/config.ts';
import type { Store } from '../../src/db/connect.ts';
import { checkedInject, type Inject } from './contract.ts';
import { createTestDatabase, type StoreKind, type TestDatabase } from './stores.ts';

export const TEST_JWT_SECRET = 'test-secret-for-dashboard-tokens-0123456789';
export const DEFAULT_NOW = Date.parse('2026-03-11T12:00:00.000Z');

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    BUILD_ID: 'test-build',
    GATEWAY_ENV: 'test',
    ...env,
  });
}

export interface TestContext {
  readonly kind: StoreKind;
  readonly database: TestDatabase;
  readonly store: Store;
  readonly app: FastifyInstance;
  readonly clock: ManualClock;
  readonly config: Config;
  /** `app.inject` with every response validated against the served OpenAPI document. */
  readonly inject: Inject;
  close(): Promise<void>;
}

export interface TestContextOptions {
  readonly now?: number;
  readonly env?: Record<string, string>;
  /** Wraps the store the app is given (e.g. to observe its writer). */
  readonly wrapStore?: (store: Store) => Store;
}

/** A real app on a fresh, migrated database of the given kind, with a manual clock. */
export async function createTestContext(kind: StoreKind, options: TestContextOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase(kind);
  const opened = database.open();
  const store = options.wrapStore ? options.wrapStore(opened) : opened;
  const clock = new ManualClock(options.now ?? DEFAULT_NOW);
  const config = testConfig(options.env);
  const app = await buildApp({ config, store, clock, logger: false });
  await app.ready();
  const inject = await checkedInject(app);
  return {
    inject,
    kind,
    database,
    store,
    app,
    clock,
    config,
    async close() {
      await app.close();
      await store.close();
      await database.drop();
    },
  };
}
