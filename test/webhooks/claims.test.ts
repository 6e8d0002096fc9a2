import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/types.ts';
import { writeWebhookEvents } from '../../src/webhooks/outbox.ts';
import { claimDueDeliveries, recordAttempts, type AttemptRecord, type ClaimOptions } from '../../src/webhooks/repository.ts';
import { newId } from '../../src/shared/ids.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { buildFixture, seed, type Fixture } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { recordingDb } from '../db/sql-samples.ts';

/** `count` events of the fixture's workspace, each with one delivery per listed endpoint, due at DEFAULT_NOW. */
async function enqueue(ctx: TestContext, fixture: Fixture, count: number, endpointIds: readonly string[]): Promise<void> {
  const workspaceId = fixture.ids.workspaceId;
  const events = Array.from({ length: count }, () => ({
    id: newId(),
    type: 'activity.shift.started' as const,
    workspaceId,
    environment: 'test' as const,
    createdAt: DEFAULT_NOW,
    data: {},
  }));
  await ctx.store.write((trx) => writeWebhookEvents(trx, events, new Map([[workspaceId, [...endpointIds]]])));
}

/** A claim just after DEFAULT_NOW, with nothing in flight. */
const CLAIM: ClaimOptions = {
  now: DEFAULT_NOW + 1,
  limit: 10,
  leaseMs: 60_000,
  owner: 'test-dispatcher',
  perEndpoint: 10,
  busy: new Map(),
};

/**
 * What a claim says besides the deliveries it took: whether due deliveries were left (over its limit, or for an
 * endpoint that has all it may take). The dispatcher claims again at once when some were left, and otherwise
 * lets the next ones gather for a moment.
 */
describe.each(STORE_KINDS)('claiming due deliveries (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  const endpoints = { a: newId(), b: newId() };

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = buildFixture();
    fixture.workspace.webhooks = [
      { id: endpoints.a, url: 'https://a.example.com/hook', events: ['*'] },
      { id: endpoints.b, url: 'https://b.example.com/hook', events: ['*'] },
    ];
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(async () => {
    await ctx.store.write((trx) => trx.deleteFrom('webhook_deliveries').execute());
  });

  const claim = (options: Partial<ClaimOptions> = {}) => claimDueDeliveries(ctx.store, { ...CLAIM, ...options });

  it('took everything due: no more left', async () => {
    await enqueue(ctx, fixture, 3, [endpoints.a]);
    const first = await claim();
    expect(first.deliveries).toHaveLength(3);
    expect(first.more).toBe(false);
    const second = await claim();
    expect(second).toEqual({ deliveries: [], more: false });
  });

  it('stopped at its limit: more left', async () => {
    await enqueue(ctx, fixture, 5, [endpoints.a]);
    const first = await claim({ limit: 2 });
    expect(first.deliveries).toHaveLength(2);
    expect(first.more).toBe(true);
    const rest = await claim();
    expect(rest.deliveries).toHaveLength(3);
    expect(rest.more).toBe(false);
  });

  it('left deliveries of an endpoint that has all it may take: more left', async () => {
    await enqueue(ctx, fixture, 3, [endpoints.a, endpoints.b]);
    const capped = await claim({ busy: new Map([[endpoints.a, 9]]) });
    expect(capped.deliveries.filter((d) => d.endpointId === endpoints.a)).toHaveLength(1);
    expect(capped.deliveries.filter((d) => d.endpointId === endpoints.b)).toHaveLength(3);
    expect(capped.more).toBe(true);
    const saturated = await claim({ busy: new Map([[endpoints.a, 10]]) });
    expect(saturated).toEqual({ deliveries: [], more: true });
  });
});

/**
 * A backlog written faster than PostgreSQL's statistics follow: the planner took the pending deliveries for a few
 * rows. The claim read all of them and sorted them to keep the oldest few hundred (22 ms a claim at 15,000 due),
 * and recording results hash-joined each chunk with all of them. The claim's transaction turns sorting off, so the
 * candidates come from the due index, in order, up to the limit; the recording's turns hash and merge joins off,
 * so each result finds its delivery by the primary key.
 */
describe.each(STORE_KINDS.filter((kind) => kind === 'postgres'))('the outbox plans with stale statistics (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  const endpointId = newId();

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = buildFixture();
    fixture.workspace.webhooks = [{ id: endpointId, url: 'https://a.example.com/hook', events: ['*'] }];
    await seed(ctx, fixture);
    // Statistics taken on an empty outbox, then a backlog of 4,000.
    await sql`analyze webhook_deliveries`.execute(ctx.store.db);
    await enqueue(ctx, fixture, 4000, [endpointId]);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const explain = (db: Executor, text: string, params: readonly unknown[]) =>
    db
      .executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${text}`, [...params]))
      .then(({ rows }) => rows.map((row) => row['QUERY PLAN']).join('\n'));

  /** The statements a claim sends PostgreSQL (captured without a database, every query answering one row). */
  async function claimStatements(): Promise<{ useOutboxIndexes: CompiledQuery; due: CompiledQuery; claimed: CompiledQuery }> {
    const sent: CompiledQuery[] = [];
    const db = recordingDb('postgres', sent, { id: 'delivery-1', endpoint_id: 'endpoint-1' });
    await claimDueDeliveries(
      { db, dialect: 'postgres', write: (job) => db.transaction().execute(job) },
      { ...CLAIM, limit: 128 },
    );
    const find = (pattern: RegExp) => {
      const found = sent.find((query) => pattern.test(query.sql));
      if (!found) throw new Error(`no statement matches ${pattern}`);
      return found;
    };
    return {
      useOutboxIndexes: find(/enable_sort/),
      due: find(/order by next_attempt_at/),
      claimed: find(/join webhook_endpoints/),
    };
  }

  it('walks the due index in order instead of sorting every due delivery, and reads the claimed ones by key', async () => {
    const statements = await claimStatements();
    const useOutboxIndexes = (trx: Executor) => trx.executeQuery(statements.useOutboxIndexes);
    const plan = (db: Executor) => explain(db, statements.due.sql, statements.due.parameters);
    await ctx.store.db.transaction().execute(async (trx) => {
      // What the planner does on its own with these statistics: the reason for the setting.
      expect(await plan(trx)).toMatch(/Sort/);
      await useOutboxIndexes(trx);
      const walked = await plan(trx);
      expect(walked).not.toMatch(/Sort/);
      expect(walked).toMatch(/Index Scan using webhook_deliveries_due/);
    });
    // Reading what a claim took (in its transaction): each delivery, its event and its endpoint by primary key.
    const ids = JSON.stringify((await ctx.store.db.selectFrom('webhook_deliveries').select('id').limit(64).execute()).map((r) => r.id));
    expect(statements.claimed.parameters).toHaveLength(1);
    const read = (db: Executor) => explain(db, statements.claimed.sql, [ids]);
    await ctx.store.db.transaction().execute(async (trx) => {
      expect(await read(trx)).toMatch(/Seq Scan on webhook_deliveries|Hash Join/);
      await useOutboxIndexes(trx);
      const byKey = await read(trx);
      expect(byKey).not.toMatch(/Seq Scan|Hash Join|Merge Join/);
      expect(byKey).toMatch(/webhook_deliveries_pkey/);
      expect(byKey).toMatch(/webhook_events_pkey/);
    });
    const claimed = await claimDueDeliveries(ctx.store, { ...CLAIM, limit: 100, perEndpoint: 400 });
    expect(claimed.deliveries).toHaveLength(100);
    expect(claimed.more).toBe(true);
  });

  it('records results by primary key instead of joining them with every pending delivery', async () => {
    const owner = 'recording-dispatcher';
    const claimed = await claimDueDeliveries(ctx.store, { ...CLAIM, owner, limit: 64, perEndpoint: 64 });
    expect(claimed.deliveries).toHaveLength(64);
    const records: AttemptRecord[] = claimed.deliveries.map((d) => ({
      deliveryId: d.id,
      owner,
      attempt: 1,
      startedAt: CLAIM.now,
      finishedAt: CLAIM.now + 5,
      durationMs: 5,
      status: 204,
      error: null,
      excerpt: null,
      outcome: 'delivered',
      nextAttemptAt: CLAIM.now,
    }));
    // The results as recordAttempts sends them: its statements, captured without a database.
    const sent: CompiledQuery[] = [];
    await recordAttempts(recordingDb('postgres', sent), 'postgres', records);
    const recording = sent.find((query) => query.sql.startsWith('update webhook_deliveries'));
    const setting = sent.find((query) => /enable_sort/.test(query.sql));
    expect(recording).toBeDefined();
    expect(setting).toBeDefined();
    const useOutboxIndexes = (trx: Executor) => trx.executeQuery(setting!);
    const plan = (db: Executor) => explain(db, recording!.sql, recording!.parameters);
    await ctx.store.db.transaction().execute(async (trx) => {
      // What the planner does on its own with these statistics: the reason for the setting.
      expect(await plan(trx)).toMatch(/Hash Join|Merge Join/);
      await useOutboxIndexes(trx);
      const byKey = await plan(trx);
      expect(byKey).toMatch(/Nested Loop/);
      expect(byKey).toMatch(/Index Scan using webhook_deliveries_pkey/);
      expect(byKey).not.toMatch(/webhook_deliveries_due/);
    });
    await ctx.store.write((trx) => recordAttempts(trx, 'postgres', records));
    const rows = await ctx.store.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'claimed_by'])
      .where('id', 'in', records.map((r) => r.deliveryId))
      .execute();
    expect(rows).toHaveLength(64);
    expect(rows.every((row) => row.status === 'delivered' && row.claimed_by === null)).toBe(true);
  });
});
