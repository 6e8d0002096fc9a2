/**
 * Hostile callers, on every route of the served OpenAPI document:
 * - forged, stolen, stale and misplaced credentials on every API-key route and every dashboard route (JWT attacks,
 *   issuer and audience when configured, API keys where tokens belong and the reverse);
 * - per route, an authorization table: other workspaces, other applications, the other environment, spoofed
 *   X-Service-Workspace-Id and X-Chat-Guild-Id, missing scopes and permissions, with the legitimate call as control.
 * Every case asserts status and error code, and that a rejected request changed nothing.
 * The matrix test fails when a served route has no table here.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { ErrorCode } from '../../src/shared/errors.ts';
import { newId } from '../../src/shared/ids.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/app.ts';
import { checkedInject, type Inject } from '../helpers/contract.ts';
import { UNIVERSE_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { AUTHORIZATION_CASES } from './authorization/cases.ts';
import {
  API_KEY_ATTACKS,
  AUDIENCE,
  DASHBOARD_ATTACKS,
  forgedTokens,
  ISSUER,
  ISSUER_AUDIENCE_ATTACKS,
  outcomeOn,
  type CredentialAttack,
  type Forged,
} from './authorization/credentials.ts';
import { build, key, merge } from './authorization/requests.ts';
import { servedRoutes, type ServedRoute } from './served-routes.ts';
import { businessSnapshot, changedTables, seedWorld, type World } from './world.ts';

const ROUTES = await servedRoutes();
const RESULTS_DIR = fileURLToPath(new URL('.results/', import.meta.url));
/** Cases run per store, by expected status: written to .results/hostile.json for the reliability figures. */
const tally: Record<string, { cases: number; byStatus: Record<string, number> }> = {};

describe('authorization matrix', () => {
  it('every served route has an authorization case table, and every table a served route', () => {
    const served = ROUTES.map((r) => r.key);
    expect(served.filter((route) => !(route in AUTHORIZATION_CASES)), 'served routes without cases').toEqual([]);
    expect(Object.keys(AUTHORIZATION_CASES).filter((route) => !served.includes(route)), 'cases of no served route').toEqual([]);
  });

  it('every authenticated route has a control, a cross-tenant case and a denied case', () => {
    for (const route of ROUTES.filter((r) => r.security !== 'none')) {
      const cases = AUTHORIZATION_CASES[route.key]?.cases ?? [];
      expect(cases.some((c) => c.status === 200), `${route.key}: control`).toBe(true);
      expect(cases.some((c) => /\bB\b|workspace B/.test(c.name)), `${route.key}: another workspace`).toBe(true);
      expect(cases.some((c) => c.status === 403), `${route.key}: a denied case`).toBe(true);
    }
  });
});

describe.each(STORE_KINDS)('hostile callers (%s)', (kind) => {
  let ctx: TestContext;
  let world: World;
  let forged: Forged;
  let issuerApp: FastifyInstance;
  let issuerInject: Inject;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    world = await seedWorld(ctx);
    forged = await forgedTokens(world);
    // A second instance on the same database that checks issuer and audience.
    issuerApp = await buildApp({
      config: testConfig({ JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE }),
      store: ctx.store,
      clock: ctx.clock,
      logger: false,
    });
    await issuerApp.ready();
    issuerInject = await checkedInject(issuerApp);
  });
  afterAll(async () => {
    await issuerApp?.close();
    await ctx?.close();
  });

  /** Sends the request and checks status, code, the envelope and, for a rejection, an unchanged database. */
  async function expectOutcome(
    inject: Inject,
    request: InjectOptions,
    expected: { status: number; code?: ErrorCode | undefined },
  ): Promise<LightMyRequestResponse> {
    const stats = (tally[kind] ??= { cases: 0, byStatus: {} });
    stats.cases += 1;
    stats.byStatus[expected.status] = (stats.byStatus[expected.status] ?? 0) + 1;
    const before = await businessSnapshot(ctx.store.db);
    const res = await inject(request);
    // Every answer is JSON except the metrics exposition (text/plain).
    const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
    const body = (json ? res.json() : {}) as { error?: { code?: string; requestId?: string } };
    expect(res.statusCode, res.body.slice(0, 300)).toBe(expected.status);
    if (expected.status >= 400) {
      expect(body.error?.code).toBe(expected.code);
      expect(body.error?.requestId).toBe(res.headers['x-request-id']);
      expect(changedTables(before, await businessSnapshot(ctx.store.db)), 'tables changed by a rejected request').toEqual([]);
    }
    return res;
  }

  const routeOf = (routeKey: string) => ROUTES.find((r) => r.key === routeKey)!;
  const validOf = (routeKey: string, w: World) => AUTHORIZATION_CASES[routeKey]!.valid(w);
  const attacks = (security: ServedRoute['security'], list: readonly CredentialAttack[]) =>
    ROUTES.filter((r) => r.security === security && r.key in AUTHORIZATION_CASES).flatMap((route) =>
      list.map((attack) => [route.key, attack.name, attack] as const),
    );

  describe('credentials on every API-key route', () => {
    it.each(attacks('apiKey', API_KEY_ATTACKS))('%s with %s', async (routeKey, _name, attack) => {
      const route = routeOf(routeKey);
      await expectOutcome(ctx.inject, build(route, merge(validOf(routeKey, world), { auth: attack.auth(world, forged) })), outcomeOn(attack, routeKey));
    });
  });

  describe('credentials on every dashboard route', () => {
    it.each(attacks('dashboardToken', DASHBOARD_ATTACKS))('%s with %s', async (routeKey, _name, attack) => {
      const route = routeOf(routeKey);
      const parts = merge(validOf(routeKey, world), { auth: attack.auth(world, forged) });
      await expectOutcome(ctx.inject, build(route, parts), outcomeOn(attack, routeKey));
    });
  });

  describe('issuer and audience, when JWT_ISSUER and JWT_AUDIENCE are configured', () => {
    it.each(attacks('dashboardToken', ISSUER_AUDIENCE_ATTACKS))('%s with %s', async (routeKey, _name, attack) => {
      const route = routeOf(routeKey);
      const parts = merge(validOf(routeKey, world), {
        auth: attack.auth(world, forged),
        path: { staffId: world.a.ids.staff.alice, ...validOf(routeKey, world).path, submissionId: world.submissions.a.accepted, noticeId: world.notices.a.denied },
      });
      await expectOutcome(issuerInject, build(route, parts), outcomeOn(attack, routeKey));
    });
  });

  describe('an Idempotency-Key never replays another principal\'s result', () => {
    const start = (secret: string, idempotencyKey: string, gameUserId: string) =>
      build(routeOf('POST /v1/activity/shifts/start'), {
        auth: key(secret),
        headers: { 'idempotency-key': idempotencyKey },
        body: { gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' },
      });

    it("workspace B's key with A's key and request gets its own answer (404), not A's stored 200", async () => {
      const idempotencyKey = `shared-${newId()}`;
      const first = await ctx.inject(start(world.a.keys.test.secret, idempotencyKey, world.a.staff.alice.gameUserId));
      expect(first.statusCode).toBe(200);
      const res = await expectOutcome(ctx.inject, start(world.b.keys.test.secret, idempotencyKey, world.a.staff.alice.gameUserId), {
        status: 404,
        code: 'not_found',
      });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    });

    it("the live key with the test key's Idempotency-Key gets the live shift, not the stored test one", async () => {
      const idempotencyKey = `shared-${newId()}`;
      await ctx.inject(start(world.a.keys.test.secret, idempotencyKey, world.a.staff.alice.gameUserId));
      const res = await ctx.inject(start(world.a.keys.live.secret, idempotencyKey, world.a.staff.alice.gameUserId));
      expect(res.statusCode).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(res.json().data.shift.id).toBe(world.shifts.aLive);
    });

    it("a member of B with the reviewer's Idempotency-Key on A's submission gets 404, not the stored 422", async () => {
      const idempotencyKey = `shared-${newId()}`;
      const accept = (token: string) =>
        build(routeOf('POST /v1/applications/submissions/{submissionId}/accept'), {
          auth: key(token),
          path: { submissionId: world.submissions.a.accepted, noticeId: world.notices.a.denied },
          headers: { 'idempotency-key': idempotencyKey },
        });
      expect((await ctx.inject(accept(world.tokens.reviewer))).statusCode).toBe(422);
      const res = await expectOutcome(ctx.inject, accept(world.tokens.second), { status: 404, code: 'not_found' });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    });
  });

  describe.each(ROUTES.map((r) => r.key))('%s', (routeKey) => {
    it.each((AUTHORIZATION_CASES[routeKey]?.cases ?? []).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const route = routeOf(routeKey);
      const request = build(route, merge(validOf(routeKey, world), c.with(world)));
      const res = await expectOutcome(ctx.inject, request, c);
      if (c.check) c.check(res.json() as Record<string, unknown>, world);
    });
  });
});

afterAll(() => {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}hostile.json`, `${JSON.stringify({ routes: ROUTES.length, stores: tally }, null, 2)}\n`);
});
