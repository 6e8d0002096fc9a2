import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOW, type TestContext } from '../../../helpers/app.ts';
import { bearer, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addSecondApplication, dataOf, errorCode, iso, shiftClient, startBody, type ShiftClient, useShiftWorld } from './shift-client.ts';

interface HeartbeatData {
  shift: { id: string; status: string; lastHeartbeatAt: string };
}
interface StopData {
  shift: {
    id: string;
    status: string;
    startedAt: string;
    endedAt: string;
    durationSeconds: number;
    minutes: number;
    endReason: string;
  };
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(STORE_KINDS)('shift heartbeat and stop (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let client: ShiftClient;
  let otherAppKey: string;
  let shiftId: string;

  const world = useShiftWorld(kind, {
    prepare: (f) => {
      otherAppKey = addSecondApplication(f).secret;
    },
  });
  beforeEach(async () => {
    ({ ctx, fixture, client } = world);
    const started = dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture)));
    shiftId = started.shift.id;
  });

  async function row() {
    return ctx.store.db.selectFrom('shifts').selectAll().where('id', '=', shiftId).executeTakeFirstOrThrow();
  }

  describe('heartbeat', () => {
    it('moves lastHeartbeatAt to recordedAt and last_seen_at to the server clock', async () => {
      ctx.clock.advance(60_000);
      const res = await client.heartbeat(shiftId, { recordedAt: iso(DEFAULT_NOW + 55_000), serverId: 'srv-1' });
      expect(dataOf<HeartbeatData>(res)).toEqual({
        shift: { id: shiftId, status: 'active', lastHeartbeatAt: iso(DEFAULT_NOW + 55_000) },
      });
      expect(res.json()).not.toHaveProperty('meta');
      expect(await row()).toMatchObject({ last_heartbeat_at: DEFAULT_NOW + 55_000, last_seen_at: DEFAULT_NOW + 60_000 });
    });

    it('without a body uses the server clock', async () => {
      ctx.clock.advance(45_000);
      const data = dataOf<HeartbeatData>(await client.heartbeat(shiftId));
      expect(data.shift.lastHeartbeatAt).toBe(iso(DEFAULT_NOW + 45_000));
    });

    it('with an empty JSON object body uses the server clock', async () => {
      ctx.clock.advance(5_000);
      const data = dataOf<HeartbeatData>(await client.heartbeat(shiftId, {}));
      expect(data.shift.lastHeartbeatAt).toBe(iso(DEFAULT_NOW + 5_000));
    });

    it('lastHeartbeatAt only moves forward: an older recordedAt keeps it but still counts as seen', async () => {
      ctx.clock.advance(120_000);
      dataOf(await client.heartbeat(shiftId, { recordedAt: iso(DEFAULT_NOW + 100_000) }));
      ctx.clock.advance(10_000);
      const late = dataOf<HeartbeatData>(await client.heartbeat(shiftId, { recordedAt: iso(DEFAULT_NOW + 50_000) }));
      expect(late.shift.lastHeartbeatAt).toBe(iso(DEFAULT_NOW + 100_000));
      expect(await row()).toMatchObject({ last_heartbeat_at: DEFAULT_NOW + 100_000, last_seen_at: DEFAULT_NOW + 130_000 });
    });

    it('rejects a recordedAt before startedAt with 400', async () => {
      const res = await client.heartbeat(shiftId, { recordedAt: iso(DEFAULT_NOW - 1) });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('validation_failed');
      expect(res.json().error.details.issues[0].path).toBe('body.recordedAt');
    });

    it('rejects a recordedAt more than 60 seconds ahead of the server clock with 400', async () => {
      const res = await client.heartbeat(shiftId, { recordedAt: iso(DEFAULT_NOW + 60_001) });
      expect(res.statusCode).toBe(400);
      const edge = await client.heartbeat(shiftId, { recordedAt: iso(DEFAULT_NOW + 60_000) });
      expect(dataOf<HeartbeatData>(edge).shift.lastHeartbeatAt).toBe(iso(DEFAULT_NOW + 60_000));
    });

    it('rejects unknown properties and malformed values with 400', async () => {
      for (const body of [{ foo: 1 }, { serverId: '' }, { recordedAt: 'soon' }, { serverId: 5 }]) {
        const res = await client.heartbeat(shiftId, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorCode(res)).toBe('validation_failed');
      }
    });

    it('answers 409 server_mismatch when serverId differs from the shift\'s', async () => {
      const res = await client.heartbeat(shiftId, { serverId: 'srv-2' });
      expect(res.statusCode).toBe(409);
      expect(errorCode(res)).toBe('server_mismatch');
      expect((await row()).last_seen_at).toBe(DEFAULT_NOW);
    });

    it('answers 409 shift_not_active on a completed shift', async () => {
      dataOf(await client.stop(shiftId));
      const res = await client.heartbeat(shiftId);
      expect(res.statusCode).toBe(409);
      expect(errorCode(res)).toBe('shift_not_active');
    });

    it('answers 404 for an unknown id and for an id that is not a uuid', async () => {
      for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
        const res = await client.heartbeat(id);
        expect(res.statusCode, id).toBe(404);
        expect(errorCode(res)).toBe('not_found');
      }
    });

    it('answers 404 with a key of another application of the same workspace', async () => {
      const res = await shiftClient(ctx, otherAppKey).heartbeat(shiftId);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    });

    it('answers 404 with the live key of the same application (test shift)', async () => {
      const res = await shiftClient(ctx, fixture.keys.live.secret).heartbeat(shiftId);
      expect(res.statusCode).toBe(404);
    });

    it('answers 415 for a body sent without Content-Type: application/json', async () => {
      const res = await ctx.inject({
        method: 'POST',
        url: `/v1/activity/shifts/${shiftId}/heartbeat`,
        headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': 'hb-text', 'content-type': 'text/plain' },
        payload: '{}',
      });
      expect(res.statusCode).toBe(415);
      expect(errorCode(res)).toBe('unsupported_media_type');
    });

    it('requires an Idempotency-Key', async () => {
      const res = await client.heartbeat(shiftId, undefined, { idempotencyKey: null });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('idempotency_key_required');
    });
  });

  describe('stop', () => {
    it('completes the shift with durationSeconds and minutes rounded down and reason manual by default', async () => {
      ctx.clock.advance(5 * 60_000);
      const endedAt = DEFAULT_NOW + 5 * 60_000 + 59_999;
      const res = await client.stop(shiftId, { endedAt: iso(endedAt) });
      expect(dataOf<StopData>(res)).toEqual({
        shift: {
          id: shiftId,
          status: 'completed',
          startedAt: iso(DEFAULT_NOW),
          endedAt: iso(endedAt),
          durationSeconds: 359,
          minutes: 5,
          endReason: 'manual',
        },
      });
      expect(res.json()).not.toHaveProperty('meta');
      expect(await row()).toMatchObject({ status: 'completed', ended_at: endedAt, end_reason: 'manual' });
    });

    it('without a body ends at the server clock', async () => {
      ctx.clock.advance(90_500);
      const data = dataOf<StopData>(await client.stop(shiftId));
      expect(data.shift).toMatchObject({ endedAt: iso(DEFAULT_NOW + 90_500), durationSeconds: 90, minutes: 1 });
    });

    it.each(['player_left', 'server_shutdown', 'manual'])('records the reason %s', async (reason) => {
      const data = dataOf<StopData>(await client.stop(shiftId, { reason }));
      expect(data.shift.endReason).toBe(reason);
    });

    it('does not accept heartbeat_timeout (or any other value) as a reason', async () => {
      for (const reason of ['heartbeat_timeout', 'other']) {
        const res = await client.stop(shiftId, { reason });
        expect(res.statusCode).toBe(400);
        expect(errorCode(res)).toBe('validation_failed');
      }
      expect((await row()).status).toBe('active');
    });

    it('rejects an endedAt before startedAt with 400', async () => {
      const res = await client.stop(shiftId, { endedAt: iso(DEFAULT_NOW - 1000) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.issues[0].path).toBe('body.endedAt');
      expect((await row()).status).toBe('active');
    });

    it('rejects an endedAt more than 60 seconds ahead of the server clock with 400', async () => {
      const res = await client.stop(shiftId, { endedAt: iso(DEFAULT_NOW + 61_000) });
      expect(res.statusCode).toBe(400);
      expect((await row()).status).toBe('active');
    });

    it('an endedAt equal to startedAt is a zero-length shift', async () => {
      const data = dataOf<StopData>(await client.stop(shiftId, { endedAt: iso(DEFAULT_NOW) }));
      expect(data.shift).toMatchObject({ durationSeconds: 0, minutes: 0 });
    });

    it('answers 409 shift_not_active when the shift is already completed', async () => {
      dataOf(await client.stop(shiftId));
      const res = await client.stop(shiftId);
      expect(res.statusCode).toBe(409);
      expect(errorCode(res)).toBe('shift_not_active');
    });

    it('a replayed stop returns the same body with Idempotent-Replayed: true', async () => {
      ctx.clock.advance(125_000);
      const first = await client.stop(shiftId, { reason: 'player_left' }, { idempotencyKey: 'stop-1' });
      ctx.clock.advance(60_000);
      const replay = await client.stop(shiftId, { reason: 'player_left' }, { idempotencyKey: 'stop-1' });
      expect(first.statusCode).toBe(200);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(first.json());
      expect(replay.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    });

    it('the same key with a different stop body is 422 idempotency_key_reused', async () => {
      dataOf(await client.stop(shiftId, { reason: 'manual' }, { idempotencyKey: 'stop-2' }));
      const res = await client.stop(shiftId, { reason: 'player_left' }, { idempotencyKey: 'stop-2' });
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('idempotency_key_reused');
    });

    it('concurrent stops with different keys complete the shift once; the others get 409', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => client.stop(shiftId, { reason: 'manual' }, { idempotencyKey: `race-${i}` })),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409]);
    });

    it('answers 404 with a key of another application of the same workspace, and leaves the shift active', async () => {
      const res = await shiftClient(ctx, otherAppKey).stop(shiftId);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
      expect((await row()).status).toBe('active');
    });

    it('answers 404 with the live key for a test shift, and leaves it active', async () => {
      const res = await shiftClient(ctx, fixture.keys.live.secret).stop(shiftId);
      expect(res.statusCode).toBe(404);
      expect((await row()).status).toBe('active');
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of [UNKNOWN_ID, '123']) {
        const res = await client.stop(id);
        expect(res.statusCode, id).toBe(404);
      }
    });

    it('answers 415 for a body sent without Content-Type: application/json', async () => {
      const res = await ctx.inject({
        method: 'POST',
        url: `/v1/activity/shifts/${shiftId}/stop`,
        headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': 'stop-text', 'content-type': 'text/plain' },
        payload: '{"reason":"manual"}',
      });
      expect(res.statusCode).toBe(415);
      expect((await row()).status).toBe('active');
    });

    it('after a stop the staff member can start a new shift', async () => {
      dataOf(await client.stop(shiftId));
      const again = dataOf<{ shift: { id: string }; existing: boolean }>(await client.start(startBody(fixture)));
      expect(again.existing).toBe(false);
      expect(again.shift.id).not.toBe(shiftId);
    });
  });
});
