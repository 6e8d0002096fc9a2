import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../../src/shared/ids.ts';
import { DEFAULT_NOW, type TestContext } from '../../../helpers/app.ts';
import { buildFixture, seed, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addSecondApplication, dataOf, errorCode, iso, shiftClient, startBody, type ShiftClient, useShiftWorld } from './shift-client.ts';

interface ListedShift {
  id: string;
  status: string;
  startedAt: string;
  lastHeartbeatAt: string;
  elapsedSeconds: number;
  universeId: string;
  placeId: string;
  serverId: string;
  staff: { id: string; displayName: string; gameUserId: string };
}
interface Page {
  shifts: ListedShift[];
  nextCursor: { cursorStartedAt: string; cursorId: string } | null;
}

/** Adds `count` active staff members (game user ids 2001…) to the fixture before it is seeded. */
function addStaff(fixture: Fixture, count: number): string[] {
  const gameUserIds: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const gameUserId = String(2000 + i);
    gameUserIds.push(gameUserId);
    fixture.workspace.staff = [
      ...(fixture.workspace.staff ?? []),
      { id: newId(), displayName: `Extra ${i}`, gameUserId, gameUsername: `extra${i}`, status: 'active' },
    ];
  }
  return gameUserIds;
}

async function startedId(client: ShiftClient, body: Record<string, unknown>): Promise<string> {
  return dataOf<{ shift: { id: string } }>(await client.start(body)).shift.id;
}

describe.each(STORE_KINDS)('reading shifts (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let client: ShiftClient;

  const world = useShiftWorld(kind, { seed: false });
  beforeEach(() => {
    ({ ctx, fixture, client } = world);
  });

  describe('GET /v1/activity/shifts/active', () => {
    it('lists active shifts with staff, ids and elapsedSeconds, ordered by startedAt', async () => {
      await seed(ctx, fixture);
      const bobId = await startedId(client, startBody(fixture, { gameUserId: fixture.staff.bob.gameUserId, startedAt: iso(DEFAULT_NOW - 600_000) }));
      const aliceId = await startedId(client, startBody(fixture, { placeId: 9, serverId: 'srv-9' }));
      ctx.clock.advance(90_500);
      const res = await client.active();
      const page = dataOf<Page>(res);
      expect(res.json()).not.toHaveProperty('meta');
      expect(page.nextCursor).toBeNull();
      expect(page.shifts).toEqual([
        {
          id: bobId,
          status: 'active',
          startedAt: iso(DEFAULT_NOW - 600_000),
          lastHeartbeatAt: iso(DEFAULT_NOW - 600_000),
          elapsedSeconds: 690,
          universeId: '42',
          placeId: '7',
          serverId: 'srv-1',
          staff: { id: fixture.ids.staff.bob, displayName: 'Bob', gameUserId: fixture.staff.bob.gameUserId },
        },
        {
          id: aliceId,
          status: 'active',
          startedAt: iso(DEFAULT_NOW),
          lastHeartbeatAt: iso(DEFAULT_NOW),
          elapsedSeconds: 90,
          universeId: '42',
          placeId: '9',
          serverId: 'srv-9',
          staff: { id: fixture.ids.staff.alice, displayName: 'Alice', gameUserId: fixture.staff.alice.gameUserId },
        },
      ]);
    });

    it('leaves out completed shifts', async () => {
      await seed(ctx, fixture);
      const id = await startedId(client, startBody(fixture));
      dataOf(await client.stop(id));
      expect(dataOf<Page>(await client.active()).shifts).toEqual([]);
    });

    it('is workspace-wide: shows shifts of every application of the key\'s workspace, not of other workspaces', async () => {
      const other = addSecondApplication(fixture);
      const foreign = buildFixture();
      await seed(ctx, fixture);
      await seed(ctx, foreign);
      const ownId = await startedId(client, startBody(fixture));
      const otherAppId = await startedId(shiftClient(ctx, other.secret), startBody(fixture, { gameUserId: fixture.staff.bob.gameUserId }));
      await startedId(shiftClient(ctx, foreign.keys.test.secret), startBody(foreign));
      const ids = dataOf<Page>(await client.active()).shifts.map((s) => s.id);
      expect(ids.sort()).toEqual([ownId, otherAppId].sort());
    });

    it('shows only the key\'s environment: the test key never sees live shifts and vice versa', async () => {
      await seed(ctx, fixture);
      const live = shiftClient(ctx, fixture.keys.live.secret);
      const testId = await startedId(client, startBody(fixture));
      const liveId = await startedId(live, startBody(fixture, { gameUserId: fixture.staff.bob.gameUserId }));
      expect(dataOf<Page>(await client.active()).shifts.map((s) => s.id)).toEqual([testId]);
      expect(dataOf<Page>(await live.active()).shifts.map((s) => s.id)).toEqual([liveId]);
    });

    it('pages through 23 shifts with limit 5, some sharing startedAt, with no duplicate and no gap', async () => {
      const gameUserIds = addStaff(fixture, 23);
      await seed(ctx, fixture);
      for (const [i, gameUserId] of gameUserIds.entries()) {
        // Four distinct start times, so most pages start or end inside a group of equal startedAt.
        await startedId(client, startBody(fixture, { gameUserId, startedAt: iso(DEFAULT_NOW - (i % 4) * 60_000) }));
      }
      const all = dataOf<Page>(await client.active('limit=100')).shifts;
      expect(all).toHaveLength(23);
      const expected = [...all].sort((a, b) =>
        a.startedAt === b.startedAt ? (a.id < b.id ? -1 : 1) : a.startedAt < b.startedAt ? -1 : 1,
      );
      expect(all.map((s) => s.id)).toEqual(expected.map((s) => s.id));

      const seen: string[] = [];
      const sizes: number[] = [];
      let query = 'limit=5';
      for (let guard = 0; guard < 10; guard += 1) {
        const page = dataOf<Page>(await client.active(query));
        sizes.push(page.shifts.length);
        seen.push(...page.shifts.map((s) => s.id));
        if (!page.nextCursor) break;
        const last = page.shifts[page.shifts.length - 1];
        expect(page.nextCursor).toEqual({ cursorStartedAt: last?.startedAt, cursorId: last?.id });
        query = `limit=5&cursorStartedAt=${encodeURIComponent(page.nextCursor.cursorStartedAt)}&cursorId=${page.nextCursor.cursorId}`;
      }
      expect(sizes).toEqual([5, 5, 5, 5, 3]);
      expect(seen).toEqual(all.map((s) => s.id));
    });

    it('ends with a null cursor when the last page is exactly full', async () => {
      const gameUserIds = addStaff(fixture, 4);
      await seed(ctx, fixture);
      for (const gameUserId of gameUserIds) await startedId(client, startBody(fixture, { gameUserId }));
      const first = dataOf<Page>(await client.active('limit=2'));
      expect(first.nextCursor).not.toBeNull();
      const cursor = first.nextCursor!;
      const second = dataOf<Page>(
        await client.active(`limit=2&cursorStartedAt=${encodeURIComponent(cursor.cursorStartedAt)}&cursorId=${cursor.cursorId}`),
      );
      expect(second.shifts).toHaveLength(2);
      expect(second.nextCursor).toBeNull();
    });

    it('defaults limit to 50 and clamps numeric limits to 1..100', async () => {
      const gameUserIds = addStaff(fixture, 3);
      await seed(ctx, fixture);
      for (const gameUserId of gameUserIds) await startedId(client, startBody(fixture, { gameUserId }));
      expect(dataOf<Page>(await client.active()).shifts).toHaveLength(3);
      for (const [limit, size, more] of [
        ['0', 1, true],
        ['-7', 1, true],
        ['1', 1, true],
        ['2', 2, true],
        ['1000', 3, false],
        ['+3', 3, false],
      ] as const) {
        const page = dataOf<Page>(await client.active(`limit=${encodeURIComponent(limit)}`));
        expect(page.shifts, `limit=${limit}`).toHaveLength(size);
        expect(page.nextCursor !== null, `limit=${limit}`).toBe(more);
      }
    });

    it.each(['abc', '1.5', '', '5x', '1e2'])('answers 400 for the non-integer limit "%s"', async (limit) => {
      await seed(ctx, fixture);
      const res = await client.active(`limit=${encodeURIComponent(limit)}`);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
    });

    it.each([
      ['cursorStartedAt without cursorId', `cursorStartedAt=${encodeURIComponent(iso(DEFAULT_NOW))}`],
      ['cursorId without cursorStartedAt', `cursorId=${newId()}`],
      ['a malformed cursorStartedAt', `cursorStartedAt=yesterday&cursorId=${newId()}`],
      ['an unencoded + offset in cursorStartedAt', `cursorStartedAt=2026-03-11T12:00:00+01:00&cursorId=${newId()}`],
      ['a cursorId that is not a uuid', `cursorStartedAt=${encodeURIComponent(iso(DEFAULT_NOW))}&cursorId=abc`],
    ])('answers 400 for %s', async (_label, query) => {
      await seed(ctx, fixture);
      const res = await client.active(query);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
    });
  });

  describe('GET /v1/activity/shifts/{shiftId}', () => {
    it('shows an active shift with elapsedSeconds and no completion fields', async () => {
      await seed(ctx, fixture);
      const id = await startedId(client, startBody(fixture));
      ctx.clock.advance(61_999);
      const res = await client.get(id);
      const { shift } = dataOf<{ shift: Record<string, unknown> }>(res);
      expect(res.json()).not.toHaveProperty('meta');
      expect(shift).toEqual({
        id,
        status: 'active',
        startedAt: iso(DEFAULT_NOW),
        lastHeartbeatAt: iso(DEFAULT_NOW),
        elapsedSeconds: 61,
        universeId: '42',
        placeId: '7',
        serverId: 'srv-1',
        staff: { id: fixture.ids.staff.alice, displayName: 'Alice', gameUserId: fixture.staff.alice.gameUserId },
      });
    });

    it('shows a completed shift with endedAt, durationSeconds, minutes and endReason, without elapsedSeconds', async () => {
      await seed(ctx, fixture);
      const id = await startedId(client, startBody(fixture));
      ctx.clock.advance(150_000);
      dataOf(await client.heartbeat(id));
      dataOf(await client.stop(id, { reason: 'server_shutdown', endedAt: iso(DEFAULT_NOW + 125_000) }));
      const { shift } = dataOf<{ shift: Record<string, unknown> }>(await client.get(id));
      expect(shift).toEqual({
        id,
        status: 'completed',
        startedAt: iso(DEFAULT_NOW),
        lastHeartbeatAt: iso(DEFAULT_NOW + 150_000),
        universeId: '42',
        placeId: '7',
        serverId: 'srv-1',
        staff: { id: fixture.ids.staff.alice, displayName: 'Alice', gameUserId: fixture.staff.alice.gameUserId },
        endedAt: iso(DEFAULT_NOW + 125_000),
        durationSeconds: 125,
        minutes: 2,
        endReason: 'server_shutdown',
      });
    });

    it('shows a shift of another application of the same workspace (reads are workspace-wide)', async () => {
      const other = addSecondApplication(fixture);
      await seed(ctx, fixture);
      const id = await startedId(shiftClient(ctx, other.secret), startBody(fixture));
      expect(dataOf<{ shift: { id: string } }>(await client.get(id)).shift.id).toBe(id);
    });

    it('answers 404 for a shift of the other environment, of another workspace, unknown or not a uuid', async () => {
      const foreign = buildFixture();
      await seed(ctx, fixture);
      await seed(ctx, foreign);
      const liveId = await startedId(shiftClient(ctx, fixture.keys.live.secret), startBody(fixture));
      const foreignId = await startedId(shiftClient(ctx, foreign.keys.test.secret), startBody(foreign));
      for (const id of [liveId, foreignId, newId(), 'nope']) {
        const res = await client.get(id);
        expect(res.statusCode, id).toBe(404);
        expect(errorCode(res)).toBe('not_found');
      }
    });
  });
});
