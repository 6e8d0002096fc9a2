/**
 * Computed rankings are kept between requests (RankingCache). These tests read a leaderboard, change what it
 * ranks through every kind of write, and read again: the second read must always be what a fresh computation
 * gives, whichever process or instance wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/app.ts';
import { applyProvisioning } from '../../../../src/provisioning/apply.ts';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { checkedInject } from '../../../helpers/contract.ts';
import { bearer, buildFixture, seed, UNIVERSE_ID, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, completedShift } from './helpers.ts';

// Wednesday 2026-03-11 12:00 UTC; the week runs from Monday 2026-03-09.
const NOW = Date.parse('2026-03-11T12:00:00Z');
const URL = '/v1/activity/leaderboard?period=week';
const TIMEOUT_SECONDS = 300;

interface Entry {
  staffId: string;
  totalSeconds: number;
  completedShifts: number;
  position: number;
}

describe.each(STORE_KINDS)('leaderboard rankings kept between requests (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let alice: string;
  let bob: string;
  let carol: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW, env: { SHIFT_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) } });
    fixture = buildFixture();
    ({ alice, bob, carol } = fixture.ids.staff);
    // Everyone active, so all three are ranked.
    fixture.workspace.staff = fixture.workspace.staff?.map((s) => ({ ...s, status: 'active' as const }));
    addHistory(fixture, {
      shifts: [
        completedShift(fixture, alice, '2026-03-10T10:00:00Z', '2026-03-10T13:00:00Z'),
        completedShift(fixture, bob, '2026-03-10T10:00:00Z', '2026-03-10T12:00:00Z'),
        completedShift(fixture, carol, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z'),
      ],
    });
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function board(inject = ctx.inject): Promise<Entry[]> {
    const res = await inject({ method: 'GET', url: URL, headers: bearer(fixture.keys.test.secret) });
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: { entries: Entry[] } }).data.entries;
  }
  const totals = (entries: Entry[]) => Object.fromEntries(entries.map((e) => [e.staffId, e.totalSeconds]));
  const order = (entries: Entry[]) => entries.map((e) => e.staffId);

  async function startShift(gameUserId: string, startedAt: string): Promise<string> {
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/start',
      headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': `start-${gameUserId}-${ctx.clock.now()}` },
      payload: { gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1', startedAt },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: { shift: { id: string } } }).data.shift.id;
  }

  function gameUserOf(staffId: string): string {
    const staff = fixture.workspace.staff?.find((s) => s.id === staffId);
    if (!staff) throw new Error('unknown staff');
    return staff.gameUserId;
  }

  it('the same ranking twice, then a stop moves it at once', async () => {
    const first = await board();
    expect(order(first)).toEqual([alice, bob, carol]);
    expect(await board()).toEqual(first);

    // Carol works four hours and stops: she leads on the very next read.
    const shiftId = await startShift(gameUserOf(carol), '2026-03-11T08:00:00Z');
    const res = await ctx.inject({
      method: 'POST',
      url: `/v1/activity/shifts/${shiftId}/stop`,
      headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': `stop-${shiftId}` },
      payload: { endedAt: '2026-03-11T12:00:00Z' },
    });
    expect(res.statusCode).toBe(200);
    const after = await board();
    expect(order(after)).toEqual([carol, alice, bob]);
    expect(totals(after)[carol]).toBe(5 * 3600);
    expect(after.find((e) => e.staffId === carol)?.completedShifts).toBe(2);
  });

  it('an active shift starts counting the moment it times out, with no write in between', async () => {
    const before = await board();
    // Bob starts at 11:00 (backdated) and is never heard from again.
    await startShift(gameUserOf(bob), '2026-03-11T11:00:00Z');
    expect(await board()).toEqual(before);
    ctx.clock.advance(TIMEOUT_SECONDS * 1000);
    expect(await board()).toEqual(before); // seen exactly a timeout ago: still live
    ctx.clock.advance(1);
    const after = await board();
    // It counts as completed at its last heartbeat, its start: no time, one more shift.
    expect(totals(after)).toEqual(totals(before));
    expect(after.find((e) => e.staffId === bob)?.completedShifts).toBe(
      (before.find((e) => e.staffId === bob)?.completedShifts ?? 0) + 1,
    );
  });

  it('provisioning through another connection (as the CLI does) is seen on the next read', async () => {
    const before = await board();
    expect(order(before)).toContain(alice);
    const other = ctx.database.open();
    try {
      const document = structuredClone(fixture.document);
      const staff = document.workspaces[0]?.staff?.find((s) => s.id === alice);
      if (!staff) throw new Error('alice missing');
      staff.status = 'inactive';
      await applyProvisioning(other.db, document, ctx.clock);
    } finally {
      await other.close();
    }
    expect(order(await board())).not.toContain(alice);

    // Shifts imported by provisioning count at once too.
    const again = ctx.database.open();
    try {
      const document = structuredClone(fixture.document);
      document.workspaces[0]!.staff!.find((s) => s.id === alice)!.status = 'inactive';
      document.workspaces[0]!.shifts = [
        ...(document.workspaces[0]!.shifts ?? []),
        completedShift(fixture, bob, '2026-03-09T00:00:00Z', '2026-03-09T10:00:00Z'),
      ];
      await applyProvisioning(again.db, document, ctx.clock);
    } finally {
      await again.close();
    }
    const after = await board();
    expect(order(after)[0]).toBe(bob);
  });

  it('a stop through another gateway instance on the same database is seen on the next read', async () => {
    const store = ctx.database.open();
    const second = await buildApp({ config: ctx.config, store, clock: ctx.clock, logger: false });
    try {
      const secondInject = await checkedInject(second);
      const before = await board();
      const leader = before[0];
      if (!leader) throw new Error('empty board');
      const shiftId = await startShift(gameUserOf(carol), '2026-03-11T00:00:00Z');
      const stopped = await secondInject({
        method: 'POST',
        url: `/v1/activity/shifts/${shiftId}/stop`,
        headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': `stop2-${shiftId}` },
        payload: { endedAt: new Date(ctx.clock.now()).toISOString() },
      });
      expect(stopped.statusCode).toBe(200);
      const after = await board();
      expect(after[0]?.staffId).toBe(carol);
      expect(after[0]?.totalSeconds).toBeGreaterThan(leader.totalSeconds);
    } finally {
      await second.close();
      await store.close();
    }
  });
});
