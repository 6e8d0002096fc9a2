import type { LightMyRequestResponse } from 'fastify';
import type { Environment } from '../../../../src/shared/actor.ts';
import { newId, randomBase62 } from '../../../../src/shared/ids.ts';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../../helpers/app.ts';
import { bearer, buildFixture, seed, UNIVERSE_ID, type Fixture, type FixtureKey } from '../../../helpers/fixtures.ts';
import type { StoreKind } from '../../../helpers/stores.ts';

export const JSON_HEADERS = { 'content-type': 'application/json' } as const;

export interface CallOptions {
  /** Default: a fresh key per call. `null` sends none. */
  readonly idempotencyKey?: string | null;
  readonly headers?: Record<string, string>;
}

/** The shift endpoints, called with one API key through the contract-checked inject. */
export function shiftClient(ctx: TestContext, secret: string) {
  function writeHeaders(options: CallOptions, withBody: boolean): Record<string, string> {
    const key = options.idempotencyKey === undefined ? `k-${randomBase62(16)}` : options.idempotencyKey;
    return {
      ...bearer(secret),
      ...(withBody ? JSON_HEADERS : {}),
      ...(key === null ? {} : { 'idempotency-key': key }),
      ...options.headers,
    };
  }

  function post(url: string, body: unknown, options: CallOptions): Promise<LightMyRequestResponse> {
    const withBody = body !== undefined;
    return ctx.inject({
      method: 'POST',
      url,
      headers: writeHeaders(options, withBody),
      ...(withBody ? { payload: JSON.stringify(body) } : {}),
    });
  }

  return {
    /** Start always sends a JSON content type (required even without a body). */
    start(body: Record<string, unknown>, options: CallOptions = {}) {
      return ctx.inject({
        method: 'POST',
        url: '/v1/activity/shifts/start',
        headers: writeHeaders(options, true),
        payload: JSON.stringify(body),
      });
    },
    heartbeat(shiftId: string, body?: Record<string, unknown>, options: CallOptions = {}) {
      return post(`/v1/activity/shifts/${shiftId}/heartbeat`, body, options);
    },
    stop(shiftId: string, body?: Record<string, unknown>, options: CallOptions = {}) {
      return post(`/v1/activity/shifts/${shiftId}/stop`, body, options);
    },
    active(query = '') {
      return ctx.inject({
        method: 'GET',
        url: `/v1/activity/shifts/active${query ? `?${query}` : ''}`,
        headers: bearer(secret),
      });
    },
    get(shiftId: string) {
      return ctx.inject({ method: 'GET', url: `/v1/activity/shifts/${shiftId}`, headers: bearer(secret) });
    },
  };
}

export type ShiftClient = ReturnType<typeof shiftClient>;

/** A start body for a staff member of the fixture (alice by default). */
export function startBody(fixture: Fixture, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    gameUserId: fixture.staff.alice.gameUserId,
    universeId: UNIVERSE_ID,
    placeId: '7',
    serverId: 'srv-1',
    ...overrides,
  };
}

/**
 * Adds a second application (with one key of every scope) to the fixture's workspace, before `seed`.
 * The shared fixture has no option for it.
 */
export function addSecondApplication(fixture: Fixture, environment: Environment = 'test'): FixtureKey & {
  readonly applicationId: string;
} {
  const applicationId = newId();
  const key: FixtureKey = {
    id: newId(),
    secret: `wsk_${environment}_${randomBase62(40)}`,
    environment,
    scopes: ['activity:write', 'activity:read', 'staff:read'],
  };
  fixture.workspace.applications = [
    ...(fixture.workspace.applications ?? []),
    {
      id: applicationId,
      name: 'Second game',
      approved: true,
      allowedUniverseIds: [UNIVERSE_ID],
      features: { activity: true, applications: true },
      keys: [{ id: key.id, environment, scopes: [...key.scopes], secret: key.secret, revoked: false, expiresAt: null }],
    },
  ];
  return { ...key, applicationId };
}

/** The `data` of a 200 response, failing loudly with the body otherwise. */
export function dataOf<T = Record<string, unknown>>(res: LightMyRequestResponse, status = 200): T {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: T }).data;
}

export function errorCode(res: LightMyRequestResponse): string | undefined {
  return (res.json() as { error?: { code?: string } }).error?.code;
}

export const iso = (epochMs: number): string => new Date(epochMs).toISOString();

/** What each shift test sees: the file's app, this test's fixture and a client of its test key. */
export interface ShiftWorld {
  ctx: TestContext;
  fixture: Fixture;
  client: ShiftClient;
}

export interface ShiftWorldOptions {
  /** Configuration of the file's app (e.g. SHIFT_TIMEOUT_SECONDS). */
  readonly env?: Record<string, string>;
  /** Adjusts each test's fixture before it is seeded. */
  readonly prepare?: (fixture: Fixture) => void;
  /** Seed the fixture before each test (default true); tests that seed themselves pass false. */
  readonly seed?: boolean;
}

/**
 * Registers the hooks every shift test file shares: one app on a fresh database per file (closed after it), and
 * before each test the clock at DEFAULT_NOW, a fresh fixture (`prepare`d, then seeded) and a client of its test
 * key. Read the returned object inside tests and hooks (it is filled in as they run).
 */
export function useShiftWorld(kind: StoreKind, options: ShiftWorldOptions = {}): ShiftWorld {
  const world = {} as ShiftWorld;
  beforeAll(async () => {
    world.ctx = await createTestContext(kind, options.env ? { env: options.env } : {});
  });
  afterAll(async () => {
    await world.ctx?.close();
  });
  beforeEach(async () => {
    world.ctx.clock.set(DEFAULT_NOW);
    world.fixture = buildFixture();
    options.prepare?.(world.fixture);
    if (options.seed !== false) await seed(world.ctx, world.fixture);
    world.client = shiftClient(world.ctx, world.fixture.keys.test.secret);
  });
  return world;
}
