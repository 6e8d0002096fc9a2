/**
 * Credentials never leak: a request mix over every served route (the fuzzer's requests, which succeed and fail,
 * plus stolen, forged and misplaced credentials, credentials sent by mistake in the URL, and requests that fail
 * with 500 on a closed database) runs
 * through an app logging at trace level with the app's own logger options. Neither the log nor any response
 * body may contain an API key secret, a dashboard token, or any 12-character fragment of either.
 */
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Writable } from 'node:stream';
import pino, { type LoggerOptions } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { newId } from '../../src/shared/ids.ts';
import { loggerOptions } from '../../src/http/logging.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/app.ts';
import { checkedInject, type Inject } from '../helpers/contract.ts';
import { bearer, dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { injectOptions, requestArbitrary } from './hostile-requests.ts';
import { knownValues } from './hostile-values.ts';
import { fillPath, pathParameters, servedRoutes, type ServedRoute } from './served-routes.ts';
import { seedWorld, type World } from './world.ts';

const ROUTES = await servedRoutes();
const SAMPLES_PER_ROUTE = 25;
const FRAGMENT = 12;

/** The app's own logger options at trace level, writing into `lines`. */
function tracingLogger(lines: string[]) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return pino({ ...(loggerOptions('trace') as LoggerOptions), level: 'trace' }, sink);
}

/** Every credential and every FRAGMENT-character piece of its secret part. */
function secretPieces(credentials: readonly string[]): string[] {
  const pieces = new Set<string>();
  for (const credential of credentials) {
    pieces.add(credential);
    // The random part of a key; the signature of a JWT (its header and payload are not secret).
    const secret = credential.startsWith('wsk_') ? credential.slice('wsk_test_'.length) : (credential.split('.')[2] ?? '');
    for (let i = 0; i + FRAGMENT <= secret.length; i += 1) pieces.add(secret.slice(i, i + FRAGMENT));
  }
  return [...pieces];
}

function leaks(text: string, pieces: readonly string[]): string[] {
  return pieces.filter((piece) => text.includes(piece));
}

/** A request of `route` that reaches the handler, with the path parameters taken from the world. */
function plainRequest(route: ServedRoute, world: World, authorization: Record<string, string>): InjectOptions {
  const values: Record<string, string> = {
    submissionId: world.submissions.a.submitted[0]!,
    shiftId: world.shifts.aTest,
    gameUserId: world.a.staff.alice.gameUserId,
  };
  const path = Object.fromEntries(pathParameters(route.template).map((name) => [name, values[name] ?? newId()]));
  return {
    method: route.method as InjectOptions['method'],
    url: fillPath(route.template, path),
    headers: { ...authorization, 'idempotency-key': `secrets-${newId()}`, 'content-type': 'application/json' },
    payload: '{}',
  };
}

/** Credentials in the wrong place, of the wrong kind, or damaged. */
function misusedCredentials(route: ServedRoute, world: World, forged: string): Array<Record<string, string>> {
  const apiKey = world.a.keys.test.secret;
  const token = world.tokens.reviewer;
  return [
    bearer(route.security === 'dashboardToken' ? apiKey : token),
    bearer(world.a.keys.revoked.secret),
    bearer(`${apiKey}x`),
    bearer(`${token}x`),
    bearer(forged),
    { authorization: `Basic ${Buffer.from(`${apiKey}:${token}`).toString('base64')}` },
    { authorization: apiKey },
    { authorization: `Bearer ${apiKey} ${token}` },
    { ...bearer(apiKey), 'x-api-key': apiKey, cookie: `session=${token}`, 'x-service-signature': token },
    // (X-Correlation-Id is echoed by design, so a credential sent there is the caller's own leak.)
    { ...bearer(token), 'idempotency-key': token },
    { ...bearer(apiKey), 'x-chat-guild-id': token, 'x-acting-chat-user-id': apiKey },
  ];
}

/** Credentials sent by mistake in the URL, which is logged with every request: in the query and in the path. */
function credentialsInUrl(route: ServedRoute, world: World): InjectOptions[] {
  const apiKey = world.a.keys.live.secret;
  const token = world.tokens.multi;
  const base = plainRequest(route, world, bearer(route.security === 'dashboardToken' ? world.tokens.reviewer : world.a.keys.test.secret));
  const inQuery = { ...base, url: `${String(base.url)}?api_key=${apiKey}&access_token=${token}` };
  const params = pathParameters(route.template);
  if (params.length === 0) return [inQuery];
  const inPath = { ...base, url: fillPath(route.template, Object.fromEntries(params.map((p) => [p, apiKey]))) };
  const tokenInPath = { ...base, url: fillPath(route.template, Object.fromEntries(params.map((p) => [p, token]))) };
  return [inQuery, inPath, tokenInPath];
}

describe.each(STORE_KINDS)('credentials never reach the log or a response body (%s)', (kind) => {
  let ctx: TestContext;
  let world: World;
  let app: FastifyInstance;
  let inject: Inject;
  let forged: string;
  const lines: string[] = [];
  const bodies: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    world = await seedWorld(ctx);
    forged = await dashboardToken(REVIEWER_USER_ID, { secret: 'a-secret-the-gateway-does-not-know-0123' });
    app = await buildApp({ config: testConfig(), store: ctx.store, clock: ctx.clock, loggerInstance: tracingLogger(lines) });
    await app.ready();
    inject = await checkedInject(app);
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  /** Sends through the contract check, and keeps the body for the leak check. */
  async function send(target: Inject, request: InjectOptions): Promise<number> {
    const res = await target(request);
    bodies.push(res.body);
    return res.statusCode;
  }

  it('runs a request mix over every served route: successes, rejections and credential misuse', async () => {
    const known = knownValues(world);
    const statuses = new Set<number>();
    for (const route of ROUTES) {
      const credential = route.security === 'apiKey' ? world.a.keys.test.secret : world.tokens.reviewer;
      statuses.add(await send(inject, plainRequest(route, world, bearer(credential))));
      for (const request of fc.sample(requestArbitrary(route, world, known), { numRuns: SAMPLES_PER_ROUTE })) {
        statuses.add(await send(inject, injectOptions(request)));
      }
      for (const authorization of misusedCredentials(route, world, forged)) {
        statuses.add(await send(inject, plainRequest(route, world, authorization)));
      }
      for (const request of credentialsInUrl(route, world)) statuses.add(await send(inject, request));
    }
    expect([...statuses].some((s) => s < 300)).toBe(true);
    expect([...statuses].some((s) => s === 401)).toBe(true);
    expect([...statuses].some((s) => s >= 400 && s !== 401)).toBe(true);
  }, 120_000); // grows with the number of served routes

  it('also when requests fail with 500 (a second instance whose database connection is closed)', async () => {
    const store = ctx.database.open();
    const broken = await buildApp({ config: testConfig(), store, clock: ctx.clock, loggerInstance: tracingLogger(lines) });
    await broken.ready();
    // Built before the connection is closed; GET /openapi.json does not touch the database anyway.
    const brokenInject = await checkedInject(broken);
    // Kysely ignores closing a connection it has not used yet.
    await store.db.selectFrom('workspaces').select('id').execute();
    await store.close();
    try {
      const statuses: number[] = [];
      for (const route of ROUTES.filter((r) => r.security !== 'none')) {
        const credential = route.security === 'apiKey' ? world.a.keys.test.secret : world.tokens.reviewer;
        statuses.push(await send(brokenInject, plainRequest(route, world, bearer(credential))));
      }
      expect(statuses.every((s) => s === 500), statuses.join(",")).toBe(true);
      expect(lines.join('')).toContain('unhandled error');
    } finally {
      await broken.close();
    }
  });

  it('the trace log holds none of them', () => {
    const log = lines.join('');
    expect(log).toContain('incoming request');
    expect(leaks(log, secretPieces([...world.secrets, forged]))).toEqual([]);
  });

  it('no response body echoes one', () => {
    expect(bodies.length).toBeGreaterThan(ROUTES.length * SAMPLES_PER_ROUTE);
    expect(leaks(bodies.join('\n'), secretPieces([...world.secrets, forged]))).toEqual([]);
  });
});
