import { beforeEach, describe, expect, it } from 'vitest';
import { type TestContext } from '../../../helpers/app.ts';
import { type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { dataOf, errorCode, iso, startBody, type ShiftClient, useShiftWorld } from './shift-client.ts';
import { keyChanges } from '../../../helpers/key-changes.ts';

/**
 * API-key writes use a key verified within the last minute from the cache and check its credential in their own
 * statement: the known heartbeat's, or the one that takes the request's Idempotency-Key (a start, a stop, any
 * other write). Whatever changes about the key or its application (here written straight to the database, as
 * another instance or the CLI would) takes effect on the very next write, exactly as on routes that look the key
 * up every time.
 */
describe.each(STORE_KINDS)('writes with a cached key (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let client: ShiftClient;
  let shiftId: string;

  const world = useShiftWorld(kind);
  beforeEach(async () => {
    ({ ctx, fixture, client } = world);
    shiftId = dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture))).shift.id;
    // The first heartbeat verifies the key; the next ones use it from the cache.
    expect((await client.heartbeat(shiftId)).statusCode).toBe(200);
  });

  async function lastHeartbeatAt(): Promise<number> {
    const row = await ctx.store.db.selectFrom('shifts').select('last_heartbeat_at').where('id', '=', shiftId).executeTakeFirstOrThrow();
    return Number(row.last_heartbeat_at);
  }

  async function heartbeatLater() {
    ctx.clock.advance(1000);
    return client.heartbeat(shiftId, { recordedAt: iso(ctx.clock.now()) });
  }

  it('is used from the cache while nothing changes: heartbeats keep applying', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await heartbeatLater();
      expect(dataOf<{ shift: { lastHeartbeatAt: string } }>(res).shift.lastHeartbeatAt).toBe(iso(ctx.clock.now()));
      expect(await lastHeartbeatAt()).toBe(ctx.clock.now());
    }
  });

  const changes = keyChanges({ scope: 'activity:write', scopesLeft: ['activity:read'] });

  it.each(changes)('a key $name is refused on the next heartbeat, which changes nothing', async ({ status, code, apply }) => {
    const before = await lastHeartbeatAt();
    await apply(ctx, fixture);
    const res = await heartbeatLater();
    expect(res.statusCode).toBe(status);
    expect(errorCode(res)).toBe(code);
    expect(await lastHeartbeatAt()).toBe(before);
    // And the one after it, now that the key is no longer cached.
    expect((await heartbeatLater()).statusCode).toBe(status);
  });

  it('a right granted after a refusal is honoured at once (a refusal is never based on a cached key)', async () => {
    await changes[2]?.apply(ctx, fixture);
    expect(errorCode(await heartbeatLater())).toBe('insufficient_scope');
    await ctx.store.db
      .updateTable('api_keys')
      .set({ scopes: '["activity:write","activity:read","staff:read"]' })
      .where('id', '=', fixture.keys.test.id)
      .execute();
    const res = await heartbeatLater();
    expect(res.statusCode).toBe(200);
    expect(await lastHeartbeatAt()).toBe(ctx.clock.now());
  });

  it('a replay under a key revoked since is refused, not replayed', async () => {
    const first = await client.heartbeat(shiftId, undefined, { idempotencyKey: 'replay-after-revoke' });
    expect(first.statusCode).toBe(200);
    expect((await client.heartbeat(shiftId, undefined, { idempotencyKey: 'replay-after-revoke' })).headers['idempotent-replayed']).toBe('true');
    await changes[0]?.apply(ctx, fixture);
    const res = await client.heartbeat(shiftId, undefined, { idempotencyKey: 'replay-after-revoke' });
    expect(res.statusCode).toBe(401);
  });

  async function shiftStatus(): Promise<string> {
    const row = await ctx.store.db.selectFrom('shifts').select('status').where('id', '=', shiftId).executeTakeFirstOrThrow();
    return row.status;
  }

  async function storedResults(): Promise<number> {
    const row = await ctx.store.db
      .selectFrom('idempotency_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it.each(changes)('a key $name is refused on the next stop, which changes and stores nothing', async ({ status, code, apply }) => {
    const results = await storedResults();
    await apply(ctx, fixture);
    ctx.clock.advance(1000);
    const res = await client.stop(shiftId);
    expect(res.statusCode).toBe(status);
    expect(errorCode(res)).toBe(code);
    expect(await shiftStatus()).toBe('active');
    expect(await storedResults()).toBe(results);
  });

  it('a start with a cached key whose credential changed but still allows it runs as the key stands now', async () => {
    // Renamed: the cached credential no longer holds, the lookup finds the key usable.
    await ctx.store.db.updateTable('applications').set({ name: 'Renamed' }).where('id', '=', fixture.ids.applicationId).execute();
    const stopped = await client.stop(shiftId);
    expect(stopped.statusCode).toBe(200);
    expect(await shiftStatus()).toBe('completed');
    const started = await client.start(startBody(fixture));
    expect(started.statusCode).toBe(200);
  });

  it('a replayed start under a key revoked since is refused, not replayed', async () => {
    const first = await client.start(startBody(fixture), { idempotencyKey: 'start-then-revoke' });
    expect(first.statusCode).toBe(200);
    expect((await client.start(startBody(fixture), { idempotencyKey: 'start-then-revoke' })).headers['idempotent-replayed']).toBe('true');
    await changes[0]?.apply(ctx, fixture);
    const res = await client.start(startBody(fixture), { idempotencyKey: 'start-then-revoke' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each(changes)('a key $name gets its refusal before a malformed request gets a 400', async ({ status, code, apply }) => {
    await apply(ctx, fixture);
    ctx.clock.advance(1000);
    const res = await client.start({ gameUserId: 'not a number' });
    expect(res.statusCode).toBe(status);
    expect(errorCode(res)).toBe(code);
  });

  it('a malformed request with a cached key that still holds is a 400', async () => {
    const res = await client.start({ gameUserId: 'not a number' });
    expect(res.statusCode).toBe(400);
  });
});
