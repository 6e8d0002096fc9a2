import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/db/connect.ts';
import { DatabaseUnavailable, unavailability, UnavailabilityCounts, type DatabaseErrorKind } from '../../src/db/unavailable.ts';
import { loadConfig } from '../../src/shared/config.ts';
import { startFaultProxy, throughProxy } from '../helpers/fault-proxy.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/stores.ts';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('what a database failure says about its reachability', () => {
  it.each<[string, unknown, DatabaseErrorKind | null]>([
    ['a connection exception (class 08)', withCode('08006'), 'connection_lost'],
    ['admin_shutdown', withCode('57P01'), 'server_shutdown'],
    ['cannot_connect_now', withCode('57P03'), 'server_shutdown'],
    ['too_many_connections', withCode('53300'), 'connect'],
    ['statement_timeout', withCode('57014'), 'timeout'],
    ['idle_in_transaction_session_timeout', withCode('25P03'), 'timeout'],
    ['a refused connection', withCode('ECONNREFUSED'), 'connect'],
    ['a reset connection', withCode('ECONNRESET'), 'connection_lost'],
    ["node-postgres's read timeout", new Error('Query read timeout'), 'timeout'],
    ["node-postgres's connection timeout", new Error('Connection terminated due to connection timeout'), 'connect'],
    ['a connection ended by the server', new Error('Connection terminated unexpectedly'), 'connection_lost'],
    ['a unique violation', withCode('23505'), null],
    ['a deadlock (run again by the write pipeline)', withCode('40P01'), null],
    ['a programming error', new TypeError('x is not a function'), null],
  ])('%s', (_name, error, kind) => {
    expect(unavailability(error)).toBe(kind);
  });

  it('counts each kind and logs a kind at most once a second, with how many were held back', () => {
    const lines: object[] = [];
    const counts = new UnavailabilityCounts();
    counts.logTo({ warn: (object) => lines.push(object) });
    for (let i = 0; i < 5; i += 1) counts.report('connect', new Error('refused'));
    counts.report('timeout', new Error('Query read timeout'));
    expect(counts.snapshot()).toEqual({ connect: 5, connection_lost: 0, timeout: 1, server_shutdown: 0 });
    expect(lines).toEqual([
      { kind: 'connect', error: 'refused' },
      { kind: 'timeout', error: 'Query read timeout' },
    ]);
  });

  it('the serving timeouts have their documented defaults and can be set', () => {
    expect(loadConfig({ BUILD_ID: 'b' })).toMatchObject({
      databaseConnectTimeoutMs: 2000,
      databaseStatementTimeoutMs: 4000,
      databaseIdleTimeoutMs: 30000,
    });
    expect(
      loadConfig({ BUILD_ID: 'b', DATABASE_CONNECT_TIMEOUT_MS: '500', DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_IDLE_TIMEOUT_MS: '5000' }),
    ).toMatchObject({ databaseConnectTimeoutMs: 500, databaseStatementTimeoutMs: 0, databaseIdleTimeoutMs: 5000 });
    expect(() => loadConfig({ BUILD_ID: 'b', DATABASE_CONNECT_TIMEOUT_MS: 'soon' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
  });
});

describe.runIf(postgresAvailable)('a PostgreSQL store that loses its database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database.drop();
  });

  it("a serving store's sessions carry the statement and idle-transaction timeouts; another's do not", async () => {
    const serving = openStore(database.url, { timeouts: { statementMs: 1234 } });
    const plain = openStore(database.url);
    try {
      const settings = sql<{ statement: string; idle: string }>`select current_setting('statement_timeout') as statement,
        current_setting('idle_in_transaction_session_timeout') as idle`;
      expect((await settings.execute(serving.db)).rows[0]).toEqual({ statement: '1234ms', idle: '1234ms' });
      expect((await settings.execute(plain.db)).rows[0]).toEqual({ statement: '0', idle: '0' });
    } finally {
      await serving.close();
      await plain.close();
    }
  });

  it('a statement over the timeout fails as a timeout, and its connection stays usable', async () => {
    const kinds: DatabaseErrorKind[] = [];
    const store = openStore(database.url, { poolSize: 1, timeouts: { statementMs: 300 }, onUnavailable: (kind) => kinds.push(kind) });
    try {
      const slow = sql`select pg_sleep(2)`.execute(store.db);
      await expect(slow).rejects.toBeInstanceOf(DatabaseUnavailable);
      expect(kinds).toEqual(['timeout']);
      const pid = sql<{ pid: number }>`select pg_backend_pid() as pid`;
      const [before, after] = [(await pid.execute(store.db)).rows[0], (await pid.execute(store.db)).rows[0]];
      expect(after).toEqual(before);
    } finally {
      await store.close();
    }
  });

  it('a silent connection is given up; the next statement opens a new one once the database answers again', async () => {
    const proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(database.url).port || 5432) });
    const kinds: DatabaseErrorKind[] = [];
    const store = openStore(throughProxy(database.url, proxy), {
      timeouts: { statementMs: 300, connectMs: 300 },
      onUnavailable: (kind) => kinds.push(kind),
    });
    try {
      const pid = sql<{ pid: number }>`select pg_backend_pid() as pid`;
      const first = (await pid.execute(store.db)).rows[0]?.pid;
      proxy.failover();
      const started = Date.now();
      await expect(store.write((trx) => pid.execute(trx))).rejects.toMatchObject({ name: 'DatabaseUnavailable', kind: 'timeout' });
      // Given up after the timeout and half a second, the rollback not waited for on the dead connection.
      expect(Date.now() - started).toBeLessThan(2_000);
      await expect(pid.execute(store.db)).rejects.toMatchObject({ kind: 'connect' });
      proxy.restore();
      const next = (await pid.execute(store.db)).rows[0]?.pid;
      expect(next).not.toBe(first);
      expect(kinds).toEqual(['timeout', 'connect']);
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('a connection the server ends while a transaction holds it is reported once, the write refused, no crash', async () => {
    const kinds: DatabaseErrorKind[] = [];
    const store = openStore(database.url, { poolSize: 2, onUnavailable: (kind) => kinds.push(kind) });
    const admin = openStore(database.url);
    try {
      const pid = sql<{ pid: number }>`select pg_backend_pid() as pid`;
      let victim: number | undefined;
      const write = store.write(async (trx) => {
        victim = (await pid.execute(trx)).rows[0]?.pid;
        await sql`select pg_terminate_backend(${victim})`.execute(admin.db);
        // The connection's error event arrives while the transaction holds it and no statement runs: unheard, it
        // would end the process.
        await new Promise((resolve) => setTimeout(resolve, 200));
        return pid.execute(trx);
      });
      await expect(write).rejects.toMatchObject({ name: 'DatabaseUnavailable', kind: 'server_shutdown' });
      // pg_terminate_backend ends the session as an administrator's shutdown does (57P01).
      expect(kinds).toEqual(['server_shutdown']);
      const next = (await pid.execute(store.db)).rows[0]?.pid;
      expect(next).not.toBe(victim);
    } finally {
      await admin.close();
      await store.close();
    }
  });
});
