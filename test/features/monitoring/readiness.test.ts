import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { ManualClock } from '../../../src/shared/clock.ts';
import { openStore, sqliteFilename, type Store } from '../../../src/db/connect.ts';
import { migrateToLatest, migratorFor, pendingMigrations } from '../../../src/db/migrate.ts';
import { createTestContext, DEFAULT_NOW, testConfig, type TestContext } from '../../helpers/app.ts';
import { checkedInject } from '../../helpers/contract.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../../helpers/stores.ts';

/** An app on the given store, its responses checked against its own document. */
async function appOn(store: Store, env: Record<string, string> = {}) {
  const app = await buildApp({ config: testConfig(env), store, clock: new ManualClock(DEFAULT_NOW), logger: false });
  await app.ready();
  return { app, inject: await checkedInject(app) };
}

/** A TCP server that accepts connections and never says a word: a database that does not answer. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.each(STORE_KINDS)('GET /ready (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('answers 200 { status: "ready" } when the database answers and every migration is applied', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('is documented under the metadata tag, unauthenticated, with its 503', async () => {
    const doc = (await ctx.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/ready'].get;
    expect(op.tags).toEqual(['metadata']);
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '503']));
    expect(doc.paths['/health'].get.security).toEqual([]);
  });

  it('a store one migration behind is 503 not_ready naming the pending migration; ready once migrated', async () => {
    const database = await createTestDatabase(kind);
    const store = database.open();
    const { app, inject } = await appOn(store);
    try {
      const migrator = await migratorFor(store);
      const { error } = await migrator.migrateDown();
      expect(error).toBeUndefined();
      // What Kysely itself reports as not executed: the last migration.
      const pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
      expect(pending).toHaveLength(1);
      expect(await pendingMigrations(store)).toEqual(pending);

      const res = await inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.error.code).toBe('not_ready');
      expect(body.error.details).toEqual({ reason: 'migrations_pending', pending });
      // Liveness is not readiness: /health still answers.
      expect((await inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);

      await migrateToLatest(store);
      expect((await inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await store.close();
      await database.drop();
    }
  });

  it('a store with no migrations applied at all is 503 not_ready', async () => {
    const database: TestDatabase = await createTestDatabase(kind, { migrate: false });
    const store = database.open();
    const { app, inject } = await appOn(store);
    try {
      const res = await inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.details.reason).toBe('migrations_pending');
      expect(res.json().error.details.pending.length).toBeGreaterThanOrEqual(3);
    } finally {
      await app.close();
      await store.close();
      await database.drop();
    }
  });
});

describe('GET /ready when the database does not answer', () => {
  it('sqlite: a database file that cannot be read is 503 not_ready (database_unavailable); /health stays 200', async () => {
    const database = await createTestDatabase('sqlite');
    const store = database.open();
    const { app, inject } = await appOn(store);
    try {
      expect((await inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      // The disk under the open store goes bad: every page now reads as garbage.
      writeFileSync(sqliteFilename(database.url), Buffer.alloc(64 * 1024, 0x41));
      const res = await inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toMatchObject({ code: 'not_ready', details: { reason: 'database_unavailable' } });
      expect(res.headers['retry-after']).toBe('5');
      const health = await inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await app.close();
      await store.close();
      await database.drop();
    }
  });

  it(
    'postgres: a server that accepts but never answers is 503 not_ready within the timeout; /health stays 200',
    async () => {
      const silent = await silentServer();
      const store = openStore(`postgres://postgres@127.0.0.1:${silent.port}/test`, { poolSize: 1 });
      const { app, inject } = await appOn(store);
      try {
        const res = await inject({ method: 'GET', url: '/ready' });
        expect(res.statusCode).toBe(503);
        expect(res.json().error).toMatchObject({ code: 'not_ready', details: { reason: 'database_unavailable' } });
        expect((await inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      } finally {
        await app.close();
        await silent.close();
        await store.close().catch(() => undefined);
      }
    },
  );

  it('postgres: a refused connection is 503 not_ready', async () => {
    const silent = await silentServer();
    const port = silent.port;
    await silent.close(); // nothing listens there now
    const store = openStore(`postgres://postgres@127.0.0.1:${port}/test`, { poolSize: 1 });
    const { app, inject } = await appOn(store);
    try {
      const res = await inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.details).toEqual({ reason: 'database_unavailable' });
    } finally {
      await app.close();
      await store.close().catch(() => undefined);
    }
  });
});
