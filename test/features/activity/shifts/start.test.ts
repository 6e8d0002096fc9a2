import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOW, type TestContext } from '../../../helpers/app.ts';
import { bearer, buildFixture, seed, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { dataOf, errorCode, iso, shiftClient, startBody, type ShiftClient, useShiftWorld } from './shift-client.ts';

interface StartData {
  shift: { id: string; status: string; startedAt: string; lastHeartbeatAt: string };
  existing: boolean;
}

describe.each(STORE_KINDS)('POST /v1/activity/shifts/start (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let client: ShiftClient;

  const world = useShiftWorld(kind);
  beforeEach(() => {
    ({ ctx, fixture, client } = world);
  });

  async function shiftRows(staffId: string) {
    return ctx.store.db.selectFrom('shifts').selectAll().where('staff_id', '=', staffId).orderBy('created_at').execute();
  }

  it('starts a shift at the server clock with lastHeartbeatAt = startedAt and existing false', async () => {
    const res = await client.start(startBody(fixture));
    const data = dataOf<StartData>(res);
    expect(res.json()).not.toHaveProperty('meta');
    expect(data.existing).toBe(false);
    expect(data.shift).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'active',
      startedAt: iso(DEFAULT_NOW),
      lastHeartbeatAt: iso(DEFAULT_NOW),
    });
    const [row] = await shiftRows(fixture.ids.staff.alice);
    expect(row).toMatchObject({
      id: data.shift.id,
      workspace_id: fixture.ids.workspaceId,
      application_id: fixture.ids.applicationId,
      environment: 'test',
      universe_id: '42',
      place_id: '7',
      server_id: 'srv-1',
      status: 'active',
      started_at: DEFAULT_NOW,
      last_heartbeat_at: DEFAULT_NOW,
      last_seen_at: DEFAULT_NOW,
      ended_at: null,
      end_reason: null,
    });
  });

  it('uses the startedAt sent by the game server, while liveness uses the server clock', async () => {
    const startedAt = DEFAULT_NOW - 10 * 60_000;
    const data = dataOf<StartData>(await client.start(startBody(fixture, { startedAt: iso(startedAt) })));
    expect(data.shift.startedAt).toBe(iso(startedAt));
    expect(data.shift.lastHeartbeatAt).toBe(iso(startedAt));
    const [row] = await shiftRows(fixture.ids.staff.alice);
    expect(row?.last_seen_at).toBe(DEFAULT_NOW);
  });

  it('coerces numeric gameUserId, universeId and placeId to decimal strings', async () => {
    const res = await client.start(
      startBody(fixture, { gameUserId: Number(fixture.staff.alice.gameUserId), universeId: 42, placeId: 7 }),
    );
    dataOf(res);
    const [row] = await shiftRows(fixture.ids.staff.alice);
    expect(row).toMatchObject({ universe_id: '42', place_id: '7' });
  });

  it.each([
    ['a negative number', { placeId: -1 }],
    ['a fractional number', { placeId: 7.5 }],
    ['a number beyond 2^53-1', { placeId: 2 ** 53 }],
    ['an empty string', { placeId: '' }],
    ['a string over 64 characters', { gameUserId: '1'.repeat(65) }],
    ['a boolean', { universeId: true }],
    ['an empty serverId', { serverId: '' }],
    ['a serverId over 128 characters', { serverId: 's'.repeat(129) }],
    ['a numeric serverId (no coercion)', { serverId: 12 }],
    ['a missing serverId', { serverId: undefined }],
    ['an unknown property', { extra: 1 }],
    ['a malformed startedAt', { startedAt: 'yesterday' }],
  ])('rejects %s with 400 validation_failed', async (_label, overrides) => {
    const res = await client.start(startBody(fixture, overrides));
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('validation_failed');
    expect(await shiftRows(fixture.ids.staff.alice)).toHaveLength(0);
  });

  it('rejects a startedAt more than 24 hours in the past (400), accepting exactly 24 hours', async () => {
    const tooOld = await client.start(startBody(fixture, { startedAt: iso(DEFAULT_NOW - 24 * 3_600_000 - 1) }));
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json().error.details.issues[0].path).toBe('body.startedAt');
    const oldest = await client.start(startBody(fixture, { startedAt: iso(DEFAULT_NOW - 24 * 3_600_000) }));
    expect(dataOf<StartData>(oldest).existing).toBe(false);
  });

  it('rejects a startedAt more than 60 seconds ahead of the server clock (400), accepting exactly 60 seconds', async () => {
    const ahead = await client.start(startBody(fixture, { startedAt: iso(DEFAULT_NOW + 60_001) }));
    expect(ahead.statusCode).toBe(400);
    expect(errorCode(ahead)).toBe('validation_failed');
    const edge = await client.start(startBody(fixture, { startedAt: iso(DEFAULT_NOW + 60_000) }));
    expect(dataOf<StartData>(edge).shift.startedAt).toBe(iso(DEFAULT_NOW + 60_000));
  });

  it('accepts a startedAt with an offset', async () => {
    const res = await client.start(startBody(fixture, { startedAt: '2026-03-11T13:30:00+02:00' }));
    expect(dataOf<StartData>(res).shift.startedAt).toBe('2026-03-11T11:30:00.000Z');
  });

  it('answers 415 unsupported_media_type without Content-Type: application/json, even with no body', async () => {
    const noBody = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/start',
      headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': 'no-body' },
    });
    expect(noBody.statusCode).toBe(415);
    expect(errorCode(noBody)).toBe('unsupported_media_type');
    const textBody = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/start',
      headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': 'text', 'content-type': 'text/plain' },
      payload: JSON.stringify(startBody(fixture)),
    });
    expect(textBody.statusCode).toBe(415);
  });

  it('checks the credential before the content type: no key and no content type is 401', async () => {
    const res = await ctx.inject({ method: 'POST', url: '/v1/activity/shifts/start' });
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('unauthenticated');
  });

  it('answers 400 for an empty JSON body', async () => {
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/start',
      headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': 'empty', 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('validation_failed');
  });

  it('answers 400 invalid_json for malformed JSON', async () => {
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/start',
      headers: { ...bearer(fixture.keys.test.secret), 'idempotency-key': 'bad', 'content-type': 'application/json' },
      payload: '{"gameUserId":',
    });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('invalid_json');
  });

  it('requires an Idempotency-Key (400 idempotency_key_required)', async () => {
    const missing = await client.start(startBody(fixture), { idempotencyKey: null });
    expect(missing.statusCode).toBe(400);
    expect(errorCode(missing)).toBe('idempotency_key_required');
    const empty = await client.start(startBody(fixture), { idempotencyKey: '' });
    expect(errorCode(empty)).toBe('idempotency_key_required');
    const tooLong = await client.start(startBody(fixture), { idempotencyKey: 'k'.repeat(256) });
    expect(errorCode(tooLong)).toBe('invalid_idempotency_key');
    expect(await shiftRows(fixture.ids.staff.alice)).toHaveLength(0);
  });

  it('refuses a universe outside the allowed list with 403 universe_not_allowed', async () => {
    const res = await client.start(startBody(fixture, { universeId: '43' }));
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('universe_not_allowed');
  });

  it('an empty allowed-universe list denies every universe', async () => {
    const closed = buildFixture({ allowedUniverseIds: [] });
    await seed(ctx, closed);
    const res = await shiftClient(ctx, closed.keys.test.secret).start(startBody(closed));
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('universe_not_allowed');
  });

  it('answers 404 not_found for a gameUserId with no staff member in the key\'s workspace', async () => {
    const res = await client.start(startBody(fixture, { gameUserId: '999999' }));
    expect(res.statusCode).toBe(404);
    expect(errorCode(res)).toBe('not_found');
  });

  it('answers 404 for a staff member of another workspace', async () => {
    const both = buildFixture({ secondWorkspace: true });
    await seed(ctx, both);
    const res = await shiftClient(ctx, both.keys.test.secret).start(
      startBody(both, { gameUserId: both.second.staff.alice.gameUserId }),
    );
    expect(res.statusCode).toBe(404);
  });

  it('refuses an inactive staff member with 403 staff_inactive', async () => {
    const res = await client.start(startBody(fixture, { gameUserId: fixture.staff.carol.gameUserId }));
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('staff_inactive');
  });

  it('a second start returns the active shift unchanged with existing true and the same id', async () => {
    const first = dataOf<StartData>(await client.start(startBody(fixture)));
    ctx.clock.advance(30_000);
    const second = dataOf<StartData>(
      await client.start(startBody(fixture, { serverId: 'srv-2', startedAt: iso(DEFAULT_NOW + 20_000) })),
    );
    expect(second.existing).toBe(true);
    expect(second.shift).toEqual(first.shift);
    expect(await shiftRows(fixture.ids.staff.alice)).toHaveLength(1);
  });

  it('a repeated start does not count as a heartbeat (last_seen_at unchanged)', async () => {
    dataOf(await client.start(startBody(fixture)));
    ctx.clock.advance(120_000);
    dataOf(await client.start(startBody(fixture)));
    const [row] = await shiftRows(fixture.ids.staff.alice);
    expect(row?.last_seen_at).toBe(DEFAULT_NOW);
    expect(row?.last_heartbeat_at).toBe(DEFAULT_NOW);
  });

  it('the test key and the live key each have their own active shift for one staff member', async () => {
    const test = dataOf<StartData>(await client.start(startBody(fixture)));
    const live = dataOf<StartData>(await shiftClient(ctx, fixture.keys.live.secret).start(startBody(fixture)));
    expect(live.existing).toBe(false);
    expect(live.shift.id).not.toBe(test.shift.id);
    const rows = await shiftRows(fixture.ids.staff.alice);
    expect(rows.map((r) => r.environment).sort()).toEqual(['live', 'test']);
  });

  it('replays a start with the same Idempotency-Key and body (Idempotent-Replayed: true)', async () => {
    const first = await client.start(startBody(fixture), { idempotencyKey: 'start-once' });
    const replay = await client.start(startBody(fixture), { idempotencyKey: 'start-once' });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    const reused = await client.start(startBody(fixture, { placeId: '8' }), { idempotencyKey: 'start-once' });
    expect(reused.statusCode).toBe(422);
    expect(errorCode(reused)).toBe('idempotency_key_reused');
  });

  it('scopes Idempotency-Keys to the application and environment: one key on the test and live keys is two starts', async () => {
    const test = await client.start(startBody(fixture), { idempotencyKey: 'shared-key' });
    const live = await shiftClient(ctx, fixture.keys.live.secret).start(startBody(fixture), { idempotencyKey: 'shared-key' });
    expect(live.headers['idempotent-replayed']).toBeUndefined();
    expect(dataOf<StartData>(live).shift.id).not.toBe(dataOf<StartData>(test).shift.id);
  });

  it('answers 413 payload_too_large for a body over 64 KiB', async () => {
    const res = await client.start(startBody(fixture, { serverId: 'x'.repeat(70 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(errorCode(res)).toBe('payload_too_large');
  });

  it('stores a refusal under its key: the replay repeats the 404', async () => {
    const body = startBody(fixture, { gameUserId: '777' });
    const first = await client.start(body, { idempotencyKey: 'missing-staff' });
    const replay = await client.start(body, { idempotencyKey: 'missing-staff' });
    expect(first.statusCode).toBe(404);
    expect(replay.statusCode).toBe(404);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
  });
});
