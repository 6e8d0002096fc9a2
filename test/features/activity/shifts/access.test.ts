import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../../src/shared/ids.ts';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { bearer, buildFixture, seed } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { errorCode, JSON_HEADERS } from './shift-client.ts';

const SHIFT_ID = newId();

/** Every shift endpoint, with the scope it needs. */
const ENDPOINTS: ReadonlyArray<{ name: string; scope: string; request: InjectOptions }> = [
  {
    name: 'start',
    scope: 'activity:write',
    request: { method: 'POST', url: '/v1/activity/shifts/start', headers: JSON_HEADERS, payload: '{}' },
  },
  { name: 'heartbeat', scope: 'activity:write', request: { method: 'POST', url: `/v1/activity/shifts/${SHIFT_ID}/heartbeat` } },
  { name: 'stop', scope: 'activity:write', request: { method: 'POST', url: `/v1/activity/shifts/${SHIFT_ID}/stop` } },
  { name: 'active list', scope: 'activity:read', request: { method: 'GET', url: '/v1/activity/shifts/active?limit=abc' } },
  { name: 'one shift', scope: 'activity:read', request: { method: 'GET', url: `/v1/activity/shifts/${SHIFT_ID}` } },
];

function withKey(request: InjectOptions, secret?: string): InjectOptions {
  return {
    ...request,
    headers: { ...(request.headers as Record<string, string>), ...(secret ? bearer(secret) : {}), 'idempotency-key': 'k1' },
  };
}

describe.each(STORE_KINDS)('shift endpoints: credentials, scopes and the activity feature (%s)', (kind) => {
  let ctx: TestContext;
  const fixture = buildFixture({
    extraKeys: { readOnly: { scopes: ['activity:read'] }, writeOnly: { scopes: ['activity:write'] }, staffOnly: { scopes: ['staff:read'] } },
  });
  const disabled = buildFixture({ features: { activity: false } });

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    await seed(ctx, fixture);
    await seed(ctx, disabled);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it.each(ENDPOINTS)('$name without a credential is 401 unauthenticated', async ({ request }) => {
    const res = await ctx.inject(withKey(request));
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('unauthenticated');
  });

  it.each(ENDPOINTS)('$name with a key lacking its scope is 403 insufficient_scope', async ({ request, scope }) => {
    const secret = scope === 'activity:write' ? fixture.keys.readOnly.secret : fixture.keys.writeOnly.secret;
    for (const key of [secret, fixture.keys.staffOnly.secret]) {
      const res = await ctx.inject(withKey(request, key));
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('insufficient_scope');
    }
  });

  it.each(ENDPOINTS)('$name with the activity feature off is 403 feature_disabled', async ({ request }) => {
    const res = await ctx.inject(withKey(request, disabled.keys.test.secret));
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('feature_disabled');
  });

  it('scope is checked before the content type: start without Content-Type with a read-only key is 403', async () => {
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/activity/shifts/start',
      headers: { ...bearer(fixture.keys.readOnly.secret), 'idempotency-key': 'k2' },
    });
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('insufficient_scope');
  });

  it('the OpenAPI document describes every shift operation under the activity tag', async () => {
    const doc = (await ctx.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ops = [
      ['/v1/activity/shifts/start', 'post', ['200', '400', '401', '403', '404', '409', '415', '422', '500']],
      ['/v1/activity/shifts/{shiftId}/heartbeat', 'post', ['200', '400', '401', '403', '404', '409', '415', '422']],
      ['/v1/activity/shifts/{shiftId}/stop', 'post', ['200', '400', '401', '403', '404', '409', '415', '422']],
      ['/v1/activity/shifts/active', 'get', ['200', '400', '401', '403', '500']],
      ['/v1/activity/shifts/{shiftId}', 'get', ['200', '400', '401', '403', '404', '500']],
    ] as const;
    for (const [path, method, statuses] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags).toEqual(['activity']);
      expect(op.operationId).toBeTruthy();
      expect(op.summary).toBeTruthy();
      expect(op.description).toBeTruthy();
      // The active list is also the console's "On duty": a member's dashboard token reads it too.
      expect(op.security).toEqual(path === '/v1/activity/shifts/active' ? [{ apiKey: [] }, { dashboardToken: [] }] : [{ apiKey: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining([...statuses]));
    }
    const stop = doc.paths['/v1/activity/shifts/{shiftId}/stop'].post;
    const stopSchema = JSON.stringify(stop.responses['200']);
    expect(stopSchema).toContain('heartbeat_timeout');
    const idempotencyHeader = stop.parameters.find((p: { name: string }) => p.name === 'idempotency-key');
    expect(idempotencyHeader).toMatchObject({ in: 'header' });
    expect(idempotencyHeader.description).toMatch(/Required/);
  });
});
