import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../../src/db/sqlite-driver.ts';
import { recordAttempts, type AttemptRecord } from '../../src/webhooks/repository.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { bearer, buildFixture, seed, type Fixture } from '../helpers/fixtures.ts';
import { dataOf, JSON_HEADERS, shiftClient, startBody } from '../features/activity/shifts/shift-client.ts';
import { recordingDb, SNAPSHOT_DIALECTS } from './sql-samples.ts';

/**
 * The SQLite store reuses prepared statements by SQL text (src/db/sqlite-dialect.ts). A value written into the
 * text instead of bound as a parameter makes every request a statement of its own: prepared anew each time, and
 * evicting the statements of every other request from the cache. So the same requests with other values (other
 * times, ids, keys) must prepare nothing new.
 */
describe('SQL text does not depend on request values (sqlite)', () => {
  let ctx: TestContext;
  let fixture: Fixture;
  const prepared: string[] = [];
  const original = SqliteDatabase.prototype.prepare;

  beforeAll(async () => {
    SqliteDatabase.prototype.prepare = function (this: InstanceType<typeof SqliteDatabase>, source: string) {
      prepared.push(source);
      return original.call(this, source);
    } as typeof original;
    ctx = await createTestContext('sqlite');
    fixture = buildFixture();
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    SqliteDatabase.prototype.prepare = original;
    await ctx?.close();
  });

  /** Starts, heartbeats (alone and in a batch), stops and reads shifts, and reads reports, at `now`. */
  async function round(now: number): Promise<void> {
    ctx.clock.set(now);
    const client = shiftClient(ctx, fixture.keys.test.secret);
    const alice = dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture))).shift.id;
    const bob = dataOf<{ shift: { id: string } }>(
      await client.start(startBody(fixture, { gameUserId: fixture.staff.bob.gameUserId })),
    ).shift.id;
    ctx.clock.set(now + 20_000);
    dataOf(await client.heartbeat(alice));
    ctx.clock.set(now + 40_000);
    const batch = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/heartbeats',
      headers: { ...bearer(fixture.keys.test.secret), ...JSON_HEADERS, 'idempotency-key': `batch-${now}` },
      payload: JSON.stringify({ serverId: 'srv-1', shiftIds: [alice, bob] }),
    });
    expect(batch.statusCode, batch.body).toBe(200);
    ctx.clock.set(now + 60_000);
    dataOf(await client.stop(alice, { reason: 'manual' }));
    const serverStop = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/servers/srv-1/stop',
      headers: { ...bearer(fixture.keys.test.secret), ...JSON_HEADERS, 'idempotency-key': `server-${now}` },
      payload: JSON.stringify({ reason: 'server_shutdown' }),
    });
    expect(serverStop.statusCode, serverStop.body).toBe(200);
    dataOf(await client.get(bob));
    dataOf(await client.active());
    const read = (url: string) => ctx.inject({ method: 'GET', url, headers: bearer(fixture.keys.test.secret) });
    dataOf(await read('/v1/activity/leaderboard?period=week'));
    dataOf(await read(`/v1/activity/staff/${fixture.staff.alice.gameUserId}?period=month`));
  }

  it('prepares no new statement when the same requests run again with other values', async () => {
    await round(DEFAULT_NOW);
    await round(DEFAULT_NOW + 3_600_000);
    const known = prepared.length;
    await round(DEFAULT_NOW + 7_200_000);
    expect(prepared.slice(known)).toEqual([]);
  });
});

/**
 * A statement whose text grows with the rows it writes (a multi-row VALUES list) is a new prepared statement for
 * every count of rows: on SQLite each holds its own compiled program in the statement cache, tens of kilobytes
 * for a hundred rows. The dispatcher records whatever number of attempts finished together, so its statements must
 * read the same for any count.
 */
describe.each(SNAPSHOT_DIALECTS)('recording webhook attempts runs the same statements for any count (%s)', (dialect) => {
  function attempt(i: number): AttemptRecord {
    return {
      deliveryId: `delivery-${i}`,
      owner: 'instance-1',
      attempt: 1 + (i % 3),
      startedAt: DEFAULT_NOW + i,
      finishedAt: DEFAULT_NOW + i + 20,
      durationMs: 20,
      status: i % 2 === 0 ? 200 : null,
      error: i % 2 === 0 ? null : 'connect ECONNREFUSED',
      excerpt: i % 2 === 0 ? 'ok' : null,
      outcome: i % 2 === 0 ? 'delivered' : 'pending',
      nextAttemptAt: DEFAULT_NOW + 60_000,
    };
  }

  // PostgreSQL's transaction first sets its planner to the outbox's indexes (useOutboxIndexes).
  const statements = dialect === 'postgres' ? 3 : 2;

  it('prepares the same statement texts for 1, 2, 7 and 64 attempts', async () => {
    const texts = new Set<string>();
    for (const count of [1, 2, 7, 64]) {
      const queries: CompiledQuery[] = [];
      await recordAttempts(recordingDb(dialect, queries), dialect, Array.from({ length: count }, (_, i) => attempt(i)));
      expect(queries).toHaveLength(statements);
      for (const query of queries) texts.add(query.sql);
    }
    expect(texts.size).toBe(statements);
  });
});
