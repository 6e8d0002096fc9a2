import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/db/connect.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { buildFixture, seed, type Fixture } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { iso, shiftClient, startBody, type ShiftClient } from './shift-client.ts';

/**
 * Fused writes change how a write commits, never what it does: the same request sequences, run on an app with
 * fused writes and on one without (every write then runs its full operation), give the same responses and leave
 * the same rows. What differs by nature is normalised explicitly: request ids (`req_…`) and the ids of the shifts
 * each app creates (replaced by the name the sequence gives each shift); the fingerprints and request ids of the
 * stored records are left out (a fingerprint hashes the path, which holds the shift's id).
 */

const TIMEOUT_SECONDS = 120;

interface World {
  readonly ctx: TestContext;
  readonly client: ShiftClient;
  /** The shift ids this world created, by the sequence's names. */
  readonly shifts: Map<string, string>;
}

/** One step of a sequence, run on a world; returns a response to compare, or nothing. */
type Step = (world: World, fixture: Fixture) => Promise<LightMyRequestResponse | void>;

const MISSING_SHIFT = '00000000-0000-4000-8000-000000000000';

function shiftOf(world: World, name: string): string {
  return world.shifts.get(name) ?? MISSING_SHIFT;
}

function start(name: string, staff: 'alice' | 'bob' | 'carol', key: string): Step {
  return async (world, fixture) => {
    const res = await world.client.start(startBody(fixture, { gameUserId: fixture.staff[staff].gameUserId }), {
      idempotencyKey: key,
    });
    const id = (res.json() as { data?: { shift?: { id?: string } } }).data?.shift?.id;
    if (res.statusCode === 200 && id && !world.shifts.has(name)) world.shifts.set(name, id);
    return res;
  };
}

function heartbeat(name: string, key: string | null, body?: (now: number) => Record<string, unknown>): Step {
  return (world) =>
    world.client.heartbeat(shiftOf(world, name), body?.(world.ctx.clock.now()), { idempotencyKey: key });
}

function stop(name: string, key: string, body?: (now: number) => Record<string, unknown>): Step {
  return (world) => world.client.stop(shiftOf(world, name), body?.(world.ctx.clock.now()), { idempotencyKey: key });
}

function rawHeartbeat(shiftId: string, key: string): Step {
  return (world) => world.client.heartbeat(shiftId, undefined, { idempotencyKey: key });
}

function get(name: string): Step {
  return (world) => world.client.get(shiftOf(world, name));
}

function advance(ms: number): Step {
  return async (world) => {
    world.ctx.clock.advance(ms);
  };
}

function revokeTestKey(): Step {
  return async (world, fixture) => {
    await world.ctx.store.db.updateTable('api_keys').set({ revoked: 1 }).where('id', '=', fixture.keys.test.id).execute();
  };
}

const SEQUENCES: ReadonlyArray<{ readonly name: string; readonly steps: readonly Step[] }> = [
  {
    name: 'heartbeats, replays and reused keys',
    steps: [
      start('a', 'alice', 'start-a'),
      heartbeat('a', 'hb-1'),
      heartbeat('a', 'hb-1'),
      heartbeat('a', 'hb-1', (now) => ({ recordedAt: iso(now) })),
      advance(5_000),
      heartbeat('a', 'hb-2', (now) => ({ recordedAt: iso(now - 1_000), serverId: 'srv-1' })),
      heartbeat('a', 'hb-2', (now) => ({ recordedAt: iso(now - 1_000), serverId: 'srv-1' })),
      heartbeat('a', 'hb-3', (now) => ({ recordedAt: iso(now - 3_000) })),
      heartbeat('a', 'hb-4', () => ({ serverId: 'srv-other' })),
      heartbeat('a', 'hb-5', () => ({ recordedAt: iso(DEFAULT_NOW - 1_000) })),
      heartbeat('a', null),
      heartbeat('a', 'bad\tkey'),
      rawHeartbeat(MISSING_SHIFT, 'hb-6'),
      rawHeartbeat('not-a-uuid', 'hb-7'),
      heartbeat('a', 'hb-8', () => ({ recordedAt: 'yesterday' })),
    ],
  },
  {
    name: 'stale and future times',
    steps: [
      start('a', 'alice', 'start-a'),
      advance(10_000),
      heartbeat('a', 'hb-1', (now) => ({ recordedAt: iso(now + 30_000) })),
      heartbeat('a', 'hb-2', (now) => ({ recordedAt: iso(now + 61_000) })),
      heartbeat('a', 'hb-3', (now) => ({ recordedAt: iso(now) })),
      heartbeat('a', 'hb-4', (now) => ({ recordedAt: iso(now + 30_000) })),
      advance(1_000),
      heartbeat('a', 'hb-5', (now) => ({ recordedAt: iso(now - 5_000) })),
      heartbeat('a', 'hb-5', (now) => ({ recordedAt: iso(now - 5_000) })),
      get('a'),
    ],
  },
  {
    name: 'timed-out and completed shifts',
    steps: [
      start('a', 'alice', 'start-a'),
      start('b', 'bob', 'start-b'),
      start('c', 'carol', 'start-c'),
      advance(30_000),
      heartbeat('a', 'hb-a1'),
      stop('a', 'stop-a', () => ({ reason: 'player_left' })),
      heartbeat('a', 'hb-a2'),
      heartbeat('a', 'hb-a1'),
      stop('a', 'stop-a', () => ({ reason: 'player_left' })),
      advance(TIMEOUT_SECONDS * 1000 + 1),
      heartbeat('b', 'hb-b1'),
      heartbeat('b', 'hb-b1'),
      heartbeat('b', 'hb-b2'),
      get('c'),
      heartbeat('c', 'hb-c1'),
      start('b2', 'bob', 'start-b-again'),
      heartbeat('b2', 'hb-b3'),
      stop('b2', 'stop-b2'),
      heartbeat('b2', 'hb-b4'),
    ],
  },
  {
    name: 'revoked keys',
    steps: [
      start('a', 'alice', 'start-a'),
      heartbeat('a', 'hb-1'),
      advance(1_000),
      heartbeat('a', 'hb-2'),
      revokeTestKey(),
      advance(1_000),
      heartbeat('a', 'hb-3'),
      heartbeat('a', 'hb-2'),
      stop('a', 'stop-a'),
    ],
  },
];

/** A response as compared: status, replay header and body, with request and shift ids normalised. */
function normalised(res: LightMyRequestResponse, world: World) {
  return {
    status: res.statusCode,
    replayed: res.headers['idempotent-replayed'] ?? null,
    body: normaliseText(res.body, world),
  };
}

function normaliseText(text: string, world: World): string {
  let out = text.replace(/req_[0-9A-Za-z]+/g, 'req_*');
  for (const [name, id] of world.shifts) out = out.split(id).join(`<shift ${name}>`);
  return out;
}

/** The rows a sequence writes: its workspace's shifts, its key's stored results and the workspace's activity version. */
async function rowsOf(world: World, fixture: Fixture) {
  const db = world.ctx.store.db;
  const names = new Map([...world.shifts].map(([name, id]) => [id, name]));
  const shifts = (await db.selectFrom('shifts').selectAll().where('workspace_id', '=', fixture.ids.workspaceId).execute())
    .map((row) => ({ ...row, id: names.get(row.id) ?? `unnamed ${row.id}` }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const records = (
    await db
      .selectFrom('idempotency_records')
      .select(['scope', 'key', 'state', 'response_status', 'response_body', 'created_at', 'locked_until'])
      .where('scope', 'like', `%${fixture.ids.applicationId}%`)
      .orderBy('scope')
      .orderBy('key')
      .execute()
  ).map((row) => ({ ...row, response_body: row.response_body === null ? null : normaliseText(row.response_body, world) }));
  const workspaces = await db
    .selectFrom('workspaces')
    .select(['id', 'activity_version'])
    .where('id', '=', fixture.ids.workspaceId)
    .execute();
  return { shifts, records, workspaces: workspaces.map((w) => ({ id: w.id, version: Number(w.activity_version) })) };
}

describe.each(STORE_KINDS)('fused writes on and off give the same responses and rows (%s)', (kind) => {
  const env = { SHIFT_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) };
  let fused: TestContext;
  let full: TestContext;
  /** How often each app's store ran a write job and a synchronous one. */
  const writes = new Map<TestContext, Counts>();
  const counts = (ctx: TestContext): Counts => writes.get(ctx) ?? { write: 0, writeSync: 0 };

  function counting(counts: Counts) {
    return (store: Store): Store => {
      const { writeSync } = store;
      return {
        db: store.db,
        dialect: store.dialect,
        write: (job) => {
          counts.write += 1;
          return store.write(job);
        },
        writeSync: writeSync
          ? (job) => {
              counts.writeSync += 1;
              return writeSync(job);
            }
          : undefined,
        read: (job) => store.read(job),
        close: () => store.close(),
      };
    };
  }

  beforeAll(async () => {
    const fusedCounts = { write: 0, writeSync: 0 };
    const fullCounts = { write: 0, writeSync: 0 };
    fused = await createTestContext(kind, { env, fusedWrites: true, wrapStore: counting(fusedCounts) });
    full = await createTestContext(kind, { env, fusedWrites: false, wrapStore: counting(fullCounts) });
    writes.set(fused, fusedCounts);
    writes.set(full, fullCounts);
  });
  afterAll(async () => {
    await fused?.close();
    await full?.close();
  });

  it.each(SEQUENCES)('$name', async ({ steps }) => {
    // The same fixture (same ids and secrets) in both databases, and the same clock.
    const fixture = buildFixture();
    const worlds: World[] = [];
    for (const ctx of [fused, full]) {
      ctx.clock.set(DEFAULT_NOW);
      await seed(ctx, fixture);
      worlds.push({ ctx, client: shiftClient(ctx, fixture.keys.test.secret), shifts: new Map() });
    }
    const [withFused, withoutFused] = worlds as [World, World];
    const before = [{ ...counts(fused) }, { ...counts(full) }] as const;
    for (const [index, step] of steps.entries()) {
      const a = await step(withFused, fixture);
      const b = await step(withoutFused, fixture);
      if (a && b) expect({ step: index, ...normalised(a, withFused) }).toEqual({ step: index, ...normalised(b, withoutFused) });
    }
    // Every sequence has heartbeats the fused path takes: the app with fused writes ran fewer full operations.
    expect(delta(before[0], counts(fused)).write).toBeLessThan(delta(before[1], counts(full)).write);
    const rows = await rowsOf(withFused, fixture);
    expect(rows.records.length).toBeGreaterThan(0);
    expect(rows).toEqual(await rowsOf(withoutFused, fixture));
  });

  it('the app with fused writes takes the fused path where it applies, the other never does', async () => {
    const fixture = buildFixture();
    const worlds: World[] = [];
    for (const ctx of [fused, full]) {
      ctx.clock.set(DEFAULT_NOW);
      await seed(ctx, fixture);
      worlds.push({ ctx, client: shiftClient(ctx, fixture.keys.test.secret), shifts: new Map() });
    }
    for (const world of worlds) await start('a', 'alice', 'start-a')(world, fixture);
    const [withFused, withoutFused] = worlds as [World, World];
    const before = [{ ...counts(fused) }, { ...counts(full) }] as const;
    for (const world of worlds) expect((await heartbeat('a', 'hb-1')(world, fixture))?.statusCode).toBe(200);
    const [fusedDelta, fullDelta] = [
      delta(before[0], counts(fused)),
      delta(before[1], counts(full)),
    ];
    // A fused heartbeat never runs a transaction job of its own: on SQLite it is one synchronous job of the
    // group commit, on PostgreSQL one statement outside Store.write. The full operation is one Store.write.
    expect(fusedDelta).toEqual({ write: 0, writeSync: kind === 'sqlite' ? 1 : 0 });
    expect(fullDelta).toEqual({ write: 1, writeSync: 0 });
    expect(normalised((await heartbeat('a', 'hb-1')(withFused, fixture)) as LightMyRequestResponse, withFused)).toEqual(
      normalised((await heartbeat('a', 'hb-1')(withoutFused, fixture)) as LightMyRequestResponse, withoutFused),
    );
  });
});

type Counts = { write: number; writeSync: number };

function delta(before: Counts, after: Counts): Counts {
  return { write: after.write - before.write, writeSync: after.writeSync - before.writeSync };
}
