import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { keyChanges, type KeyChange } from '../helpers/key-changes.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { dataOf, errorCode, shiftClient, startBody } from '../features/activity/shifts/shift-client.ts';
import { intakeBody, seedIntakeFixture, submit, type IntakeFixture } from '../features/applications/intake-helpers.ts';
import { ask, cancel, noticeBody } from '../features/time-off/helpers.ts';

interface Route {
  readonly name: string;
  readonly changes: readonly KeyChange[];
  /** What the route writes, counted (rows, or a row's state): a refused request leaves it as it was. */
  readonly state: (w: World) => Promise<unknown>;
  /** A first request that succeeds, so the key is verified and cached, and what the route's request needs. */
  readonly warm: (w: World) => Promise<void>;
  readonly send: (w: World) => Promise<LightMyRequestResponse>;
}

interface World {
  ctx: TestContext;
  fixture: IntakeFixture;
  shiftId: string;
  noticeId: string;
}

const count = async (w: World, table: 'shifts' | 'submissions' | 'inactivity_notices' | 'idempotency_records') =>
  Number(
    (await w.ctx.store.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );

const json = { 'content-type': 'application/json' };
const post = (w: World, url: string, body: unknown) =>
  w.ctx.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${w.fixture.keys.test.secret}`, 'idempotency-key': crypto.randomUUID(), ...json },
    payload: JSON.stringify(body),
  });

const activity = keyChanges({ scope: 'activity:write', scopesLeft: ['activity:read'] });
const staffWrite = keyChanges({ scope: 'staff:write', scopesLeft: ['staff:read'], feature: null });

const batchOfOne = (w: World) => post(w, '/v1/activity/shifts/heartbeats', { serverId: 'srv-1', shiftIds: [w.shiftId] });

/** A shift started on srv-1 and one batch of heartbeats for it (the key verified, and cached). */
async function startAndBeat(w: World): Promise<void> {
  const started = await shiftClient(w.ctx, w.fixture.keys.test.secret).start(startBody(w.fixture));
  w.shiftId = dataOf<{ shift: { id: string } }>(started).shift.id;
  expect((await batchOfOne(w)).statusCode).toBe(200);
}

const shiftState = async (w: World) =>
  w.ctx.store.db.selectFrom('shifts').select(['status', 'last_heartbeat_at']).where('id', '=', w.shiftId).executeTakeFirstOrThrow();

const noticeState = async (w: World) =>
  w.ctx.store.db.selectFrom('inactivity_notices').select(['status', 'ends_at']).where('id', '=', w.noticeId).executeTakeFirstOrThrow();

/**
 * Every API-key write that may use a key verified within the last minute (besides the single shift operations,
 * tested with their own file): a change of the key or its application made meanwhile is refused on the next
 * request, which writes nothing and stores no result, as on a route that looks the key up every time.
 */
const ROUTES: readonly Route[] = [
  {
    name: 'a batch of heartbeats',
    changes: activity,
    warm: startAndBeat,
    state: shiftState,
    send: batchOfOne,
  },
  {
    name: "a game server's stop",
    changes: activity,
    warm: startAndBeat,
    state: shiftState,
    send: (w) => post(w, '/v1/activity/servers/srv-1/stop', {}),
  },
  {
    name: 'an application submitted',
    changes: keyChanges({ scope: 'applications:write', scopesLeft: ['applications:read'], feature: 'applications' }),
    warm: async (w) => {
      expect((await submit(w.ctx.inject, w.fixture.keys.test.secret, w.fixture.form.id, intakeBody())).statusCode).toBe(200);
    },
    state: (w) => count(w, 'submissions'),
    send: (w) => submit(w.ctx.inject, w.fixture.keys.test.secret, w.fixture.form.id, intakeBody()),
  },
  {
    name: 'a request for time off',
    changes: staffWrite,
    warm: async (w) => {
      expect((await ask(w.ctx.inject, w.fixture.keys.test.secret, noticeBody(DEFAULT_NOW, 24, 24))).statusCode).toBe(200);
    },
    state: (w) => count(w, 'inactivity_notices'),
    send: (w) => ask(w.ctx.inject, w.fixture.keys.test.secret, noticeBody(DEFAULT_NOW, 96, 24)),
  },
  {
    name: 'a cancellation of time off',
    changes: staffWrite,
    warm: async (w) => {
      const res = await ask(w.ctx.inject, w.fixture.keys.test.secret, noticeBody(DEFAULT_NOW, 24, 24));
      w.noticeId = dataOf<{ notice: { id: string } }>(res).notice.id;
    },
    state: noticeState,
    send: (w) => cancel(w.ctx.inject, w.fixture.keys.test.secret, w.noticeId),
  },
];

describe.each(STORE_KINDS)('API-key writes with a cached key (%s)', (kind) => {
  const world = {} as World;
  beforeAll(async () => {
    world.ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await world.ctx?.close();
  });
  beforeEach(async () => {
    world.ctx.clock.set(DEFAULT_NOW);
    world.fixture = await seedIntakeFixture(world.ctx);
  });

  describe.each(ROUTES)('$name', (route) => {
    it.each(route.changes)('with a key $name is refused, and writes and stores nothing', async ({ status, code, apply }) => {
      await route.warm(world);
      const before = { state: await route.state(world), results: await count(world, 'idempotency_records') };
      await apply(world.ctx, world.fixture);
      // A second on: past the expiry one change sets, and a heartbeat that would move the shift's time.
      world.ctx.clock.advance(1000);
      const res = await route.send(world);
      expect(res.statusCode, res.body).toBe(status);
      expect(errorCode(res)).toBe(code);
      expect({ state: await route.state(world), results: await count(world, 'idempotency_records') }).toEqual(before);
    });

    it('with its key unchanged is answered from the cache and writes', async () => {
      await route.warm(world);
      const before = await route.state(world);
      world.ctx.clock.advance(1000);
      const res = await route.send(world);
      expect(res.statusCode, res.body).toBe(200);
      expect(await route.state(world)).not.toEqual(before);
    });
  });
});
