import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/app.ts';
import type { Store } from '../../../../src/db/connect.ts';
import { startShift } from '../../../../src/features/activity/shifts/lifecycle.ts';
import type { ShiftRow } from '../../../../src/features/activity/shifts/repository.ts';
import { newId } from '../../../../src/shared/ids.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../../helpers/app.ts';
import { checkedInject, type Inject } from '../../../helpers/contract.ts';
import { buildFixture, seed, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { JSON_HEADERS, shiftClient, startBody, type ShiftClient, useShiftWorld } from './shift-client.ts';

interface StartData {
  shift: { id: string };
  existing: boolean;
}

describe.each(STORE_KINDS)('concurrent shift starts (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let client: ShiftClient;

  const world = useShiftWorld(kind);
  beforeEach(() => {
    ({ ctx, fixture, client } = world);
  });

  async function activeRows() {
    return ctx.store.db
      .selectFrom('shifts')
      .select(['id'])
      .where('staff_id', '=', fixture.ids.staff.alice)
      .where('status', '=', 'active')
      .execute();
  }

  it('10 starts at once with different Idempotency-Keys yield exactly one active shift', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => client.start(startBody(fixture))));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const data = results.map((r) => (r.json() as { data: StartData }).data);
    expect(data.filter((d) => !d.existing)).toHaveLength(1);
    expect(new Set(data.map((d) => d.shift.id)).size).toBe(1);
    const rows = await activeRows();
    expect(rows).toEqual([{ id: data[0]?.shift.id }]);
  });

  it('10 identical starts at once with one Idempotency-Key have one effect', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.start(startBody(fixture), { idempotencyKey: 'same-start' })),
    );
    for (const res of results) {
      expect([200, 409]).toContain(res.statusCode);
      if (res.statusCode === 409) expect(res.json().error.code).toBe('idempotency_request_in_progress');
    }
    const ok = results.filter((r) => r.statusCode === 200).map((r) => (r.json() as { data: StartData }).data);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.every((d) => d.existing === false && d.shift.id === ok[0]?.shift.id)).toBe(true);
    expect(await activeRows()).toHaveLength(1);
  });

  it('the database refuses a second active shift for the same staff member, application and environment', async () => {
    const row = (overrides: Partial<ShiftRow> = {}): ShiftRow => ({
      id: newId(),
      workspace_id: fixture.ids.workspaceId,
      application_id: fixture.ids.applicationId,
      environment: 'test',
      staff_id: fixture.ids.staff.alice,
      universe_id: '42',
      place_id: '7',
      server_id: 'srv-1',
      status: 'active',
      started_at: DEFAULT_NOW,
      last_heartbeat_at: DEFAULT_NOW,
      last_seen_at: DEFAULT_NOW,
      ended_at: null,
      end_reason: null,
      created_at: DEFAULT_NOW,
      ...overrides,
    });
    const start = (shift: ShiftRow) => ctx.store.write((trx) => startShift(trx, shift));
    expect(await start(row())).toBe(true);
    expect(await start(row())).toBe(false);
    expect(await start(row({ environment: 'live' }))).toBe(true);
    expect(await activeRows()).toHaveLength(2);
  });

  it('starts for different staff members at once each get their own shift', async () => {
    const results = await Promise.all(
      (['alice', 'bob'] as const).flatMap((name) =>
        Array.from({ length: 3 }, () => client.start(startBody(fixture, { gameUserId: fixture.staff[name].gameUserId }))),
      ),
    );
    const ids = results.map((r) => (r.json() as { data: StartData }).data.shift.id);
    expect(new Set(ids).size).toBe(2);
  });
});

describe.each(STORE_KINDS.filter((kind) => kind === 'postgres'))('two gateway instances on one database (%s)', (kind) => {
  let ctx: TestContext;
  let secondStore: Store;
  let secondApp: FastifyInstance;
  let secondInject: Inject;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    secondStore = ctx.database.open();
    secondApp = await buildApp({ config: ctx.config, store: secondStore, clock: ctx.clock, logger: false });
    await secondApp.ready();
    secondInject = await checkedInject(secondApp);
  });
  afterAll(async () => {
    await secondApp.close();
    await secondStore.close();
    await ctx.close();
  });

  it('starts racing on two instances for one staff member yield one active shift', async () => {
    const fixture = buildFixture();
    await seed(ctx, fixture);
    const headers = (i: number) => ({
      authorization: `Bearer ${fixture.keys.test.secret}`,
      'idempotency-key': `race-${i}`,
      ...JSON_HEADERS,
    });
    const payload = JSON.stringify(startBody(fixture));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? ctx.inject : secondInject)({
          method: 'POST',
          url: '/v1/activity/shifts/start',
          headers: headers(i),
          payload,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const data = results.map((r) => (r.json() as { data: StartData }).data);
    expect(data.filter((d) => !d.existing)).toHaveLength(1);
    expect(new Set(data.map((d) => d.shift.id)).size).toBe(1);
    const active = await ctx.store.db
      .selectFrom('shifts')
      .select('id')
      .where('staff_id', '=', fixture.ids.staff.alice)
      .where('status', '=', 'active')
      .execute();
    expect(active).toHaveLength(1);
  });

  it('a stop on one instance and a heartbeat on the other: the heartbeat never revives the stopped shift', async () => {
    const fixture = buildFixture();
    await seed(ctx, fixture);
    const first = shiftClient(ctx, fixture.keys.test.secret);
    const start = await first.start(startBody(fixture));
    const id = (start.json() as { data: StartData }).data.shift.id;
    const [stop, heartbeat] = await Promise.all([
      first.stop(id),
      secondInject({
        method: 'POST',
        url: `/v1/activity/shifts/${id}/heartbeat`,
        headers: { authorization: `Bearer ${fixture.keys.test.secret}`, 'idempotency-key': 'hb-race' },
      }),
    ]);
    expect(stop.statusCode).toBe(200);
    expect([200, 409]).toContain(heartbeat.statusCode);
    const row = await ctx.store.db.selectFrom('shifts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
  });
});
