import { beforeEach, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../../../src/shared/ids.ts';
import { DEFAULT_NOW, type TestContext } from '../../../helpers/app.ts';
import { bearer, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addSecondApplication, dataOf, errorCode, iso, JSON_HEADERS, startBody, useShiftWorld, type ShiftClient } from './shift-client.ts';

interface BatchItem {
  shiftId: string;
  shift?: { id: string; status: string; lastHeartbeatAt: string };
  error?: { code: string; message: string };
}
interface StoppedShift {
  id: string;
  status: string;
  startedAt: string;
  endedAt: string;
  durationSeconds: number;
  minutes: number;
  endReason: string;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const TIMEOUT_SECONDS = 300;

describe.each(STORE_KINDS)('game-server batch calls (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let client: ShiftClient;
  let otherAppKey: string;

  const world = useShiftWorld(kind, {
    env: { SHIFT_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) },
    prepare: (f) => {
      otherAppKey = addSecondApplication(f).secret;
    },
  });
  beforeEach(() => {
    ({ ctx, fixture, client } = world);
  });

  function post(url: string, body: unknown, options: { key?: string | null; secret?: string; headers?: Record<string, string> } = {}) {
    const key = options.key === undefined ? `k-${randomBase62(16)}` : options.key;
    return ctx.inject({
      method: 'POST',
      url,
      headers: {
        ...bearer(options.secret ?? fixture.keys.test.secret),
        ...(body === undefined ? {} : JSON_HEADERS),
        ...(key === null ? {} : { 'idempotency-key': key }),
        ...options.headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }
  const heartbeats = (body: unknown, options?: Parameters<typeof post>[2]) =>
    post('/v1/activity/shifts/heartbeats', body, options);
  const stopServer = (serverId: string, body?: unknown, options?: Parameters<typeof post>[2]) =>
    post(`/v1/activity/servers/${encodeURIComponent(serverId)}/stop`, body, options);

  async function start(staff: 'alice' | 'bob', overrides: Record<string, unknown> = {}, secret?: string) {
    const body = startBody(fixture, { gameUserId: fixture.staff[staff].gameUserId, ...overrides });
    const res = secret
      ? await post('/v1/activity/shifts/start', body, { secret })
      : await client.start(body);
    return dataOf<{ shift: { id: string } }>(res).shift.id;
  }
  async function row(id: string) {
    return ctx.store.db.selectFrom('shifts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }
  async function rows() {
    return ctx.store.db.selectFrom('shifts').selectAll().orderBy('id').execute();
  }

  describe('POST /v1/activity/shifts/heartbeats', () => {
    it('records one heartbeat on every listed shift and answers a result per shift, in request order', async () => {
      const a = await start('alice');
      const b = await start('bob');
      ctx.clock.advance(60_000);
      const res = await heartbeats({ serverId: 'srv-1', shiftIds: [b, a], recordedAt: iso(DEFAULT_NOW + 55_000) });
      expect(res.json()).not.toHaveProperty('meta');
      expect(dataOf<{ results: BatchItem[] }>(res).results).toEqual([
        { shiftId: b, shift: { id: b, status: 'active', lastHeartbeatAt: iso(DEFAULT_NOW + 55_000) } },
        { shiftId: a, shift: { id: a, status: 'active', lastHeartbeatAt: iso(DEFAULT_NOW + 55_000) } },
      ]);
      for (const id of [a, b]) {
        expect(await row(id)).toMatchObject({ last_heartbeat_at: DEFAULT_NOW + 55_000, last_seen_at: DEFAULT_NOW + 60_000 });
      }
    });

    it('without recordedAt uses the server clock; an older recordedAt never moves lastHeartbeatAt back', async () => {
      const a = await start('alice');
      ctx.clock.advance(30_000);
      dataOf(await heartbeats({ serverId: 'srv-1', shiftIds: [a] }));
      expect((await row(a)).last_heartbeat_at).toBe(DEFAULT_NOW + 30_000);
      ctx.clock.advance(10_000);
      const late = dataOf<{ results: BatchItem[] }>(
        await heartbeats({ serverId: 'srv-1', shiftIds: [a], recordedAt: iso(DEFAULT_NOW + 10_000) }),
      );
      expect(late.results[0]?.shift?.lastHeartbeatAt).toBe(iso(DEFAULT_NOW + 30_000));
      expect(await row(a)).toMatchObject({ last_heartbeat_at: DEFAULT_NOW + 30_000, last_seen_at: DEFAULT_NOW + 40_000 });
    });

    it('refuses each item by the single heartbeat\'s rules and changes nothing for it, applying the others', async () => {
      const live = await start('alice');
      const otherServer = await start('bob', { serverId: 'srv-2' });
      const foreign = await start('alice', {}, otherAppKey);
      ctx.clock.advance(5_000);
      const completedId = otherServer; // stopped below, then listed as completed
      dataOf(await client.stop(completedId));
      const lateStart = await start('bob', { startedAt: iso(DEFAULT_NOW + 5_000), serverId: 'srv-1' });
      const before = await rows();
      ctx.clock.advance(1_000);
      const res = await heartbeats({
        serverId: 'srv-1',
        shiftIds: [live, UNKNOWN_ID, 'not-a-uuid', foreign, completedId, lateStart],
        recordedAt: iso(DEFAULT_NOW + 4_000),
      });
      const results = dataOf<{ results: BatchItem[] }>(res).results;
      expect(results.map((r) => r.shiftId)).toEqual([live, UNKNOWN_ID, 'not-a-uuid', foreign, completedId, lateStart]);
      expect(results.map((r) => r.error?.code ?? 'applied')).toEqual([
        'applied',
        'not_found',
        'not_found',
        'not_found',
        'shift_not_active',
        'validation_failed',
      ]);
      for (const r of results) if (r.error) expect(r.error.message.length).toBeGreaterThan(0);
      const after = new Map((await rows()).map((r) => [r.id, r]));
      for (const old of before) {
        if (old.id === live) continue;
        expect(after.get(old.id)).toEqual(old);
      }
      expect(after.get(live)).toMatchObject({ last_heartbeat_at: DEFAULT_NOW + 4_000 });
    });

    it('answers server_mismatch for a shift of another server', async () => {
      const a = await start('alice', { serverId: 'srv-2' });
      const results = dataOf<{ results: BatchItem[] }>(await heartbeats({ serverId: 'srv-1', shiftIds: [a] })).results;
      expect(results).toEqual([{ shiftId: a, error: { code: 'server_mismatch', message: expect.any(String) } }]);
      expect((await row(a)).last_seen_at).toBe(DEFAULT_NOW);
    });

    it('completes a shift that has timed out (heartbeat_timeout) and answers shift_not_active for it alone', async () => {
      const stale = await start('alice');
      const live = await start('bob');
      ctx.clock.advance(200_000);
      dataOf(await client.heartbeat(live, { serverId: 'srv-1' }));
      ctx.clock.advance(150_000);
      const results = dataOf<{ results: BatchItem[] }>(await heartbeats({ serverId: 'srv-1', shiftIds: [stale, live] })).results;
      expect(results[0]?.error?.code).toBe('shift_not_active');
      expect(results[1]?.shift?.lastHeartbeatAt).toBe(iso(DEFAULT_NOW + 350_000));
      expect(await row(stale)).toMatchObject({ status: 'completed', end_reason: 'heartbeat_timeout', ended_at: DEFAULT_NOW });
    });

    it('treats ids as uuids ignoring case: answers with the id as sent and the shift\'s own id', async () => {
      const a = await start('alice');
      const upper = a.toUpperCase();
      const results = dataOf<{ results: BatchItem[] }>(await heartbeats({ serverId: 'srv-1', shiftIds: [upper] })).results;
      expect(results).toEqual([{ shiftId: upper, shift: { id: a, status: 'active', lastHeartbeatAt: iso(DEFAULT_NOW) } }]);
    });

    it.each([
      ['an empty shiftIds', () => ({ serverId: 'srv-1', shiftIds: [] })],
      ['201 shiftIds', () => ({ serverId: 'srv-1', shiftIds: Array.from({ length: 201 }, (_, i) => `id-${i}`) })],
      ['a duplicated id', (a: string) => ({ serverId: 'srv-1', shiftIds: [a, a] })],
      ['one uuid spelt twice', (a: string) => ({ serverId: 'srv-1', shiftIds: [a, a.toUpperCase()] })],
      ['no serverId', (a: string) => ({ shiftIds: [a] })],
      ['a serverId over 128 characters', (a: string) => ({ serverId: 'x'.repeat(129), shiftIds: [a] })],
      ['an unknown property', (a: string) => ({ serverId: 'srv-1', shiftIds: [a], extra: true })],
      ['a recordedAt over 60 s ahead', (a: string) => ({ serverId: 'srv-1', shiftIds: [a], recordedAt: iso(DEFAULT_NOW + 62_000) })],
      ['a recordedAt that is no date-time', (a: string) => ({ serverId: 'srv-1', shiftIds: [a], recordedAt: 'soon' })],
    ])('refuses %s with 400 validation_failed and writes nothing', async (_name, body) => {
      const a = await start('alice');
      ctx.clock.advance(1_000);
      const before = await rows();
      const res = await heartbeats(body(a));
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
      expect(await rows()).toEqual(before);
    });

    it('needs application/json (415), a key (400), credentials (401) and the write scope (403)', async () => {
      const a = await start('alice');
      const textPlain = await heartbeats(JSON.stringify({ serverId: 'srv-1', shiftIds: [a] }), {
        headers: { 'content-type': 'text/plain' },
      });
      expect([textPlain.statusCode, errorCode(textPlain)]).toEqual([415, 'unsupported_media_type']);
      const noKey = await heartbeats({ serverId: 'srv-1', shiftIds: [a] }, { key: null });
      expect([noKey.statusCode, errorCode(noKey)]).toEqual([400, 'idempotency_key_required']);
      const noAuth = await ctx.inject({
        method: 'POST',
        url: '/v1/activity/shifts/heartbeats',
        headers: { ...JSON_HEADERS, 'idempotency-key': 'k' },
        payload: JSON.stringify({ serverId: 'srv-1', shiftIds: [a] }),
      });
      expect(noAuth.statusCode).toBe(401);
      const live = await heartbeats({ serverId: 'srv-1', shiftIds: [a] }, { secret: fixture.keys.live.secret });
      expect(dataOf<{ results: BatchItem[] }>(live).results[0]?.error?.code).toBe('not_found');
      expect((await row(a)).last_seen_at).toBe(DEFAULT_NOW);
    });

    it('replays the stored result under the same key, and refuses the key with another body (422)', async () => {
      const a = await start('alice');
      const key = `batch-${randomBase62(8)}`;
      const first = await heartbeats({ serverId: 'srv-1', shiftIds: [a] }, { key });
      ctx.clock.advance(10_000);
      const replay = await heartbeats({ serverId: 'srv-1', shiftIds: [a] }, { key });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(first.json());
      expect((await row(a)).last_seen_at).toBe(DEFAULT_NOW);
      const reused = await heartbeats({ serverId: 'srv-2', shiftIds: [a] }, { key });
      expect([reused.statusCode, errorCode(reused)]).toEqual([422, 'idempotency_key_reused']);
    });
  });

  describe('POST /v1/activity/servers/{serverId}/stop', () => {
    it('stops every active shift of the server (default server_shutdown), by startedAt then id', async () => {
      const later = await start('alice', { startedAt: iso(DEFAULT_NOW - 60_000) });
      const earlier = await start('bob', { startedAt: iso(DEFAULT_NOW - 120_000) });
      const elsewhere = await start('alice', { serverId: 'srv-1' }, otherAppKey);
      ctx.clock.advance(90_000);
      const res = await stopServer('srv-1');
      expect(res.json()).not.toHaveProperty('meta');
      const shifts = dataOf<{ shifts: StoppedShift[] }>(res).shifts;
      expect(shifts.map((s) => s.id)).toEqual([earlier, later]);
      expect(shifts[0]).toEqual({
        id: earlier,
        status: 'completed',
        startedAt: iso(DEFAULT_NOW - 120_000),
        endedAt: iso(DEFAULT_NOW + 90_000),
        durationSeconds: 210,
        minutes: 3,
        endReason: 'server_shutdown',
      });
      expect(await row(elsewhere)).toMatchObject({ status: 'active' });
      const again = dataOf<{ shifts: StoppedShift[] }>(await stopServer('srv-1'));
      expect(again.shifts).toEqual([]);
    });

    it('takes endedAt and reason; a shift started after endedAt ends at its own startedAt', async () => {
      const a = await start('alice', { startedAt: iso(DEFAULT_NOW - 60_000) });
      const b = await start('bob', { startedAt: iso(DEFAULT_NOW + 20_000) });
      ctx.clock.advance(30_000);
      const shifts = dataOf<{ shifts: StoppedShift[] }>(
        await stopServer('srv-1', { endedAt: iso(DEFAULT_NOW), reason: 'player_left' }),
      ).shifts;
      expect(shifts.map((s) => [s.id, s.endedAt, s.durationSeconds, s.endReason])).toEqual([
        [a, iso(DEFAULT_NOW), 60, 'player_left'],
        [b, iso(DEFAULT_NOW + 20_000), 0, 'player_left'],
      ]);
    });

    it('completes a timed-out shift as heartbeat_timeout and does not list it', async () => {
      const stale = await start('alice');
      const live = await start('bob');
      ctx.clock.advance(200_000);
      dataOf(await client.heartbeat(live));
      ctx.clock.advance(150_000);
      const shifts = dataOf<{ shifts: StoppedShift[] }>(await stopServer('srv-1')).shifts;
      expect(shifts.map((s) => s.id)).toEqual([live]);
      expect(await row(stale)).toMatchObject({ status: 'completed', end_reason: 'heartbeat_timeout' });
    });

    it.each([
      ['an endedAt over 60 s ahead', { endedAt: iso(DEFAULT_NOW + 61_000) }],
      ['an unknown reason', { reason: 'heartbeat_timeout' }],
      ['an unknown property', { when: 'now' }],
    ])('refuses %s with 400 and writes nothing', async (_name, body) => {
      await start('alice');
      const before = await rows();
      const res = await stopServer('srv-1', body);
      expect([res.statusCode, errorCode(res)]).toEqual([400, 'validation_failed']);
      expect(await rows()).toEqual(before);
    });

    it('needs application/json for a body (415) and a key (400); replays under the same key', async () => {
      await start('alice');
      const textPlain = await stopServer('srv-1', 'reason=manual', { headers: { 'content-type': 'text/plain' } });
      expect(textPlain.statusCode).toBe(415);
      const noKey = await stopServer('srv-1', undefined, { key: null });
      expect([noKey.statusCode, errorCode(noKey)]).toEqual([400, 'idempotency_key_required']);
      const first = await stopServer('srv-1', undefined, { key: 'shutdown-1' });
      const replay = await stopServer('srv-1', undefined, { key: 'shutdown-1' });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(first.json());
      expect(dataOf<{ shifts: StoppedShift[] }>(first).shifts).toHaveLength(1);
    });
  });

  describe('concurrency', () => {
    it('a batch heartbeat racing single stops: every shift ends completed, each item applied or not active', async () => {
      const ids = [await start('alice'), await start('bob')];
      const more = await Promise.all([start('alice', {}, otherAppKey)]);
      ctx.clock.advance(1_000);
      const answers = await Promise.all([
        heartbeats({ serverId: 'srv-1', shiftIds: ids }),
        ...ids.map((id) => client.stop(id)),
        heartbeats({ serverId: 'srv-1', shiftIds: ids }),
      ]);
      for (const res of answers) expect(res.statusCode).toBe(200);
      for (const res of [answers[0], answers[answers.length - 1]]) {
        for (const item of dataOf<{ results: BatchItem[] }>(res!).results) {
          expect(item.shift ? 'applied' : item.error?.code).toMatch(/^(applied|shift_not_active)$/);
        }
      }
      for (const id of ids) expect(await row(id)).toMatchObject({ status: 'completed', end_reason: 'manual' });
      expect(await row(more[0]!)).toMatchObject({ status: 'active' });
    });

    it('a server stop racing batch heartbeats and single stops: each shift stopped once', async () => {
      const ids = [await start('alice'), await start('bob')];
      ctx.clock.advance(1_000);
      const answers = await Promise.all([
        stopServer('srv-1'),
        heartbeats({ serverId: 'srv-1', shiftIds: ids }),
        client.stop(ids[0]!),
      ]);
      for (const res of answers) expect(res.statusCode).toBeLessThan(500);
      const byServer = dataOf<{ shifts: StoppedShift[] }>(answers[0]!).shifts.map((s) => s.id);
      const single = answers[2]!.statusCode === 200 ? [ids[0]] : [];
      expect(new Set([...byServer, ...single]).size).toBe(byServer.length + single.length);
      expect([...byServer, ...single].sort()).toEqual([...ids].sort());
      for (const id of ids) expect(await row(id)).toMatchObject({ status: 'completed' });
    });
  });
});
