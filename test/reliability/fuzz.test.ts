/**
 * Property-based fuzzing of every route of the served OpenAPI document, on both stores, with valid credentials of
 * the route's kind. Properties of every response:
 * - never a 5xx;
 * - it matches the OpenAPI document (ctx.inject checks that), carries X-Request-Id (never the one the caller sent)
 *   and, from 400 on, the error envelope with `error.requestId` equal to it (an idempotent replay carries the
 *   stored body, so its `error.requestId` is the original request's);
 * - it echoes no credential;
 * - a rejected request (>= 400) changed nothing: every table but idempotency_records is as before;
 * and both stores, given the same requests (each route's seed is the same on both), answer the same statuses.
 *
 * FUZZ_RUNS (default 150) sets the runs per route and store; FUZZ_SEED=<n> replays the run a failure names. The
 * number of requests sent is written to test/reliability/.results/fuzz.json.
 */
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { bearer } from '../helpers/fixtures.ts';
import { postgresAvailable, STORE_KINDS, type StoreKind } from '../helpers/stores.ts';
import { describeRequest, injectOptions, requestArbitrary, type FuzzRequest } from './hostile-requests.ts';
import { knownValues, type KnownValues } from './hostile-values.ts';
import { servedRoutes, servedRoutesOf } from './served-routes.ts';
import { businessSnapshot, changedTables, seedWorld, type World } from './world.ts';

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 150);
/** Route i runs with seed BASE_SEED + i, so FUZZ_SEED=<BASE_SEED> replays a whole run. */
const BASE_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RESULTS_DIR = fileURLToPath(new URL('.results/', import.meta.url));

const ROUTES = await servedRoutes();

interface StoreTally {
  requests: number;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
  /** The status of every request, in order, by route: both stores get the same requests (same seeds). */
  sequence: Record<string, number[]>;
}
const tally: Partial<Record<StoreKind, StoreTally>> = {};

function assertEnvelope(request: FuzzRequest, res: LightMyRequestResponse): void {
  const requestId = res.headers['x-request-id'];
  if (typeof requestId !== 'string') throw new Error('no X-Request-Id');
  if (requestId === request.headers['x-request-id']) throw new Error('X-Request-Id echoes the caller\'s header');
  if (res.statusCode < 400) return;
  const body = res.json() as { error?: { code?: unknown; requestId?: unknown } };
  if (typeof body.error?.code !== 'string') throw new Error(`a ${res.statusCode} without the error envelope`);
  // A replay answers the stored body, whose requestId is the original request's (docs/API.md, "Behaviour worth knowing").
  const replayed = res.headers['idempotent-replayed'] === 'true';
  if (!replayed && body.error.requestId !== requestId) throw new Error('error.requestId differs from X-Request-Id');
}

describe.each(STORE_KINDS)('fuzzing every served route (%s)', (kind) => {
  let ctx: TestContext;
  let world: World;
  let known: KnownValues;
  const stats: StoreTally = { requests: 0, byRoute: {}, byStatus: {}, sequence: {} };
  tally[kind] = stats;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    world = await seedWorld(ctx);
    known = knownValues(world);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('fuzzes exactly the routes this app serves', async () => {
    expect((await servedRoutesOf(ctx.app)).map((r) => r.key)).toEqual(ROUTES.map((r) => r.key));
    expect(ROUTES.length).toBeGreaterThan(10);
  });

  /** Counterexamples the fuzzer found, pinned (each was a 5xx, a bare framework error or the wrong status). */
  const PINNED: ReadonlyArray<{ name: string; request: (w: World) => InjectOptions; status: number; code: string }> = [
    {
      name: 'a NUL character in a path parameter is 400 (was 500 on PostgreSQL)',
      request: (w) => ({ method: 'GET', url: '/v1/activity/staff/1001%00', headers: bearer(w.a.keys.test.secret) }),
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'a NUL character in a header is 400 (was 500 on PostgreSQL)',
      request: (w) => ({
        method: 'GET',
        url: '/v1/staff/me',
        headers: { ...bearer(w.a.keys.test.secret), 'x-chat-guild-id': w.a.guildId, 'x-acting-chat-user-id': '5551\u0000' },
      }),
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'a NUL character in a body string is 400 (was 500 on PostgreSQL, stored as is on SQLite)',
      request: (w) => ({
        method: 'PATCH',
        url: `/v1/applications/submissions/${w.submissions.a.underReview}/review`,
        headers: { ...bearer(w.tokens.reviewer), 'idempotency-key': 'pinned-nul', 'content-type': 'application/json' },
        payload: JSON.stringify({ reviewerNotes: 'a\u0000b' }),
      }),
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'a malformed percent-encoding in a path parameter is 404 in the envelope (was a bare 400)',
      request: (w) => ({ method: 'GET', url: '/v1/activity/shifts/%zz', headers: bearer(w.a.keys.test.secret) }),
      status: 404,
      code: 'not_found',
    },
    {
      name: 'a path parameter over 500 characters is 404 in the envelope (was a bare 414)',
      request: (w) => ({ method: 'GET', url: `/v1/activity/staff/${'1'.repeat(600)}`, headers: bearer(w.a.keys.test.secret) }),
      status: 404,
      code: 'not_found',
    },
    {
      name: 'a wrong method with malformed JSON is 405 (was 400)',
      request: (w) => ({
        method: 'DELETE',
        url: '/v1/activity/shifts/active',
        headers: { ...bearer(w.a.keys.test.secret), 'content-type': 'application/json' },
        payload: '{',
      }),
      status: 405,
      code: 'method_not_allowed',
    },
    {
      name: 'a wrong method with an oversized body is 405 (was 413)',
      request: (w) => ({
        method: 'PUT',
        url: `/v1/applications/submissions/${w.submissions.a.submitted[0]}/accept`,
        headers: { ...bearer(w.tokens.reviewer), 'content-type': 'application/json' },
        payload: JSON.stringify({ reviewNote: 'x'.repeat(80 * 1024) }),
      }),
      status: 405,
      code: 'method_not_allowed',
    },
  ];

  it.each(PINNED.map((p) => [p.name, p] as const))('%s', async (_name, pinned) => {
    const before = await businessSnapshot(ctx.store.db);
    const res = await ctx.inject(pinned.request(world));
    expect(res.statusCode, res.body).toBe(pinned.status);
    expect(res.json().error).toMatchObject({ code: pinned.code, requestId: res.headers['x-request-id'] });
    expect(changedTables(before, await businessSnapshot(ctx.store.db))).toEqual([]);
  });

  it.each(ROUTES.map((route, index) => [route.key, route, index] as const))(
    '%s: never a 5xx, always the documented envelope, and a rejected request changes nothing',
    async (key, route, index) => {
      let before = await businessSnapshot(ctx.store.db);
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route, world, known), async (request) => {
          const res = await ctx.inject(injectOptions(request)).catch((error: Error) => {
            // The contract check failed: say so briefly (paths and bodies can be kilobytes long).
            throw new Error(`${error.message.slice(0, 1500)}\n${describeRequest(request)}\nreplay: FUZZ_SEED=${BASE_SEED}`);
          });
          stats.requests += 1;
          stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
          stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
          (stats.sequence[key] ??= []).push(res.statusCode);
          const after = await businessSnapshot(ctx.store.db);
          const context = `${res.statusCode} ${res.body.slice(0, 300)}\n${describeRequest(request)}\nreplay: FUZZ_SEED=${BASE_SEED}`;
          try {
            if (res.statusCode >= 500) throw new Error('a 5xx');
            assertEnvelope(request, res);
            for (const secret of world.secrets) if (res.body.includes(secret)) throw new Error('the body echoes a credential');
            if (res.statusCode >= 400) {
              const changed = changedTables(before, after);
              if (changed.length > 0) throw new Error(`a rejected request changed ${changed.join(', ')}`);
            }
          } catch (error) {
            throw new Error(`${(error as Error).message}: ${context}`);
          } finally {
            before = after;
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: BASE_SEED + index, endOnFailure: true },
      );
    },
    120_000,
  );
});

describe.runIf(postgresAvailable)('both stores', () => {
  it('answer the same fuzzed requests with the same statuses, in the same order', () => {
    expect(tally.postgres?.sequence).toEqual(tally.sqlite?.sequence);
  });
});

afterAll(() => {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const total = Object.values(tally).reduce((sum, s) => sum + (s?.requests ?? 0), 0);
  writeFileSync(
    `${RESULTS_DIR}fuzz.json`,
    `${JSON.stringify(
      {
        seed: BASE_SEED,
        runsPerRoute: RUNS_PER_ROUTE,
        routes: ROUTES.length,
        totalRequests: total,
        stores: Object.fromEntries(Object.entries(tally).map(([store, { sequence: _sequence, ...counts }]) => [store, counts])),
      },
      null,
      2,
    )}\n`,
  );
});
