/**
 * The served OpenAPI document says exactly what the service does: required and typed parameters, enums, examples
 * everywhere, the error codes of each status, the 401 challenge, the answers of unmatched requests. And declaring
 * those things in the route schemas changes no answer: the idempotency key keeps its own codes and its place in
 * the check order.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateIdempotencyKey } from '../../src/idempotency/index.ts';
import { serverUrl } from '../../src/http/openapi.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { bearer, buildFixture, dashboardToken, REVIEWER_USER_ID, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Json;
  example?: unknown;
  examples?: unknown;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Json> };
  responses: Record<string, Json & { description: string; headers?: Record<string, Json>; content?: Record<string, Json> }>;
}

const SUBMISSION = '5b1c2d3e-0000-4000-8000-00000000c0de';
const SHIFT = '0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b';
const WRITES = [
  ['POST', '/v1/activity/shifts/start', 'apiKey'],
  ['POST', `/v1/activity/shifts/${SHIFT}/heartbeat`, 'apiKey'],
  ['POST', `/v1/activity/shifts/${SHIFT}/stop`, 'apiKey'],
  ['POST', `/v1/applications/submissions/${SUBMISSION}/accept`, 'user'],
  ['POST', `/v1/applications/submissions/${SUBMISSION}/mark-under-review`, 'user'],
  ['POST', `/v1/applications/submissions/${SUBMISSION}/reject`, 'user'],
  ['PATCH', `/v1/applications/submissions/${SUBMISSION}/review`, 'user'],
] as const;

function operations(document: Json): Array<[string, string, Operation]> {
  const out: Array<[string, string, Operation]> = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(item)) out.push([method, path, op]);
  }
  return out;
}

const param = (op: Operation, name: string) => op.parameters?.find((p) => p.name === name);
const hasExample = (media: Json | undefined) => media !== undefined && ('example' in media || 'examples' in media);

describe.each(STORE_KINDS)('the served OpenAPI document (%s)', (kind) => {
  let ctx: TestContext;
  let document: Json;
  let ops: Array<[string, string, Operation]>;
  let token: string;
  const fixture = buildFixture();

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    await seed(ctx, fixture);
    token = await dashboardToken(REVIEWER_USER_ID);
    document = (await ctx.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
    ops = operations(document);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const byId = (id: string) => {
    const found = ops.find(([, , op]) => op.operationId === id);
    if (!found) throw new Error(`no operation ${id}`);
    return found[2];
  };

  /** The console's sign-in POSTs make a new link, or spend a code, on every call: no Idempotency-Key. */
  const SIGN_IN_POSTS = ['/v1/console/sign-in-links', '/v1/console/sessions'];
  /** Discord's interactions speak Discord's protocol: idempotent on the interaction's id, no envelope, no headers of ours. */
  const DISCORD = '/v1/discord/applications/{applicationId}/interactions';
  /** Taken from Roblox, which sends no Idempotency-Key: a repeated notification id is its idempotency. */
  const ROBLOX_POSTS = ['/v1/roblox/workspaces/{workspaceId}/erasure-requests'];

  it('the console sign-in POSTs take no Idempotency-Key', () => {
    const signIn = ops.filter(([method, path]) => method === 'post' && SIGN_IN_POSTS.includes(path));
    expect(signIn).toHaveLength(2);
    for (const [, path, op] of signIn) expect(param(op, 'idempotency-key'), path).toBeUndefined();
  });

  it('requires Idempotency-Key on every write (thirteen single calls, two batch calls), with the length and characters the service enforces', () => {
    const writes = ops.filter(
      ([method, path]) =>
        (method === 'post' || method === 'patch') && !SIGN_IN_POSTS.includes(path) && !ROBLOX_POSTS.includes(path) && path !== DISCORD,
    );
    expect(writes).toHaveLength(15);
    for (const [method, path, op] of writes) {
      const key = param(op, 'idempotency-key');
      expect(key, `${method} ${path}`).toMatchObject({ in: 'header', required: true });
      expect(key?.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
      expect(key?.example).toBeDefined();
    }
    // The documented rule and the idempotency module's check accept exactly the same keys.
    const schema = param(writes[0]![2], 'idempotency-key')!.schema as { pattern: string; maxLength: number };
    const documented = (key: string) =>
      key.length >= 1 && key.length <= schema.maxLength && new RegExp(schema.pattern, 'u').test(key);
    const enforced = (key: string) => {
      try {
        validateIdempotencyKey(key);
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 8 })), (key) => {
        expect(documented(key)).toBe(enforced(key));
      }),
      { numRuns: 2000 },
    );
    for (const key of ['', ' ', 'a'.repeat(255), 'a'.repeat(256), 'ü', 'tab\there', '~!@#']) {
      expect(documented(key), JSON.stringify(key)).toBe(enforced(key));
    }
  });

  it("documents the write pipeline's answers on every operation that reaches it: 413 and 415 with a body, 409 and 422 with an Idempotency-Key", () => {
    const codes = (op: Operation, status: string) => (op.responses[status]?.['x-error-codes'] ?? []) as string[];
    const withBody = ops.filter(([, , op]) => op.requestBody !== undefined);
    const withKey = ops.filter(([, , op]) => param(op, 'idempotency-key') !== undefined);
    expect(withBody).toHaveLength(18);
    expect(withKey).toHaveLength(15);
    for (const [method, path, op] of withBody) {
      expect(codes(op, '413'), `${method} ${path}`).toContain('payload_too_large');
      expect(codes(op, '415'), `${method} ${path}`).toContain('unsupported_media_type');
    }
    for (const [method, path, op] of withKey) {
      expect(codes(op, '409'), `${method} ${path}`).toContain('idempotency_request_in_progress');
      expect(codes(op, '422'), `${method} ${path}`).toContain('idempotency_key_reused');
    }
    // A route's own codes of a status come first, the pipeline's after them.
    expect(codes(byId('recordShiftHeartbeat'), '409')).toEqual(['shift_not_active', 'server_mismatch', 'idempotency_request_in_progress']);
    // Roblox's erasure request is read as raw bytes (its signature covers them), so it documents its own 413 and 415.
    const withoutBodyOrKey = ops.filter(
      ([, path, op]) => op.requestBody === undefined && param(op, 'idempotency-key') === undefined && !ROBLOX_POSTS.includes(path),
    );
    for (const [method, path, op] of withoutBodyOrKey) {
      for (const status of ['413', '415', '422']) expect(op.responses[status], `${method} ${path} ${status}`).toBeUndefined();
    }
  });

  it('documents a body that may be left out as optional, and as an object: a JSON null body is not "no body"', () => {
    const optional = ['recordShiftHeartbeat', 'stopShift', 'stopServerShifts', 'acceptSubmission', 'rejectSubmission', 'markSubmissionUnderReview'];
    for (const id of optional) {
      const body = byId(id).requestBody as { required?: boolean; content: Record<string, { schema: Json }> };
      expect(body.required, id).toBe(false);
      expect(body.content['application/json']?.schema.type, id).toBe('object');
    }
    for (const id of ['startShift', 'recordShiftHeartbeats', 'updateSubmissionReview']) {
      const body = byId(id).requestBody as { required?: boolean; content: Record<string, { schema: Json }> };
      expect(body.required, id).toBe(true);
      expect(body.content['application/json']?.schema.type, id).toBe('object');
    }
  });

  /** Operations that never touch the database: liveness, the build, the document itself, the console's files. */
  const WITHOUT_DATABASE = ['getHealth', 'getVersion', 'getOpenApiDocument', 'getMetrics', 'getReadiness'];

  it('documents 503 service_unavailable with a required Retry-After on every operation that needs the database', () => {
    const needing = ops.filter(([method, , op]) => method !== 'head' && !WITHOUT_DATABASE.includes(op.operationId));
    expect(needing.length).toBeGreaterThan(20);
    for (const [method, path, op] of needing) {
      const response = op.responses['503'];
      expect(response, `${method} ${path}`).toBeDefined();
      expect(JSON.stringify(response)).toContain('service_unavailable');
      expect(response?.headers?.['retry-after'], `${method} ${path}`).toMatchObject({ required: true });
    }
  });

  it('documents X-Correlation-Id with its pattern on every /v1 operation', () => {
    const v1 = ops.filter(([, path]) => path.startsWith('/v1/') && path !== DISCORD);
    expect(v1.length).toBeGreaterThanOrEqual(14);
    for (const [method, path, op] of v1) {
      const header = param(op, 'x-correlation-id');
      expect(header, `${method} ${path}`).toMatchObject({ in: 'header', required: false });
      expect(header?.schema).toMatchObject({ type: 'string', pattern: '^[\\x21-\\x7E]{1,128}$' });
    }
  });

  it('types query parameters as what they are', () => {
    expect(param(byId('listActiveShifts'), 'limit')?.schema).toMatchObject({ type: 'integer' });
    const board = byId('getActivityLeaderboard');
    expect(param(board, 'limit')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    const inactive = param(board, 'includeInactive')?.schema as { anyOf: Json[] };
    expect(inactive.anyOf).toContainEqual({ type: 'boolean' });
    expect(inactive.anyOf).toContainEqual({ type: 'string', enum: ['1', '0'] });
    for (const op of [board, byId('getStaffActivity')]) {
      const period = param(op, 'period')?.schema as { anyOf: Json[] };
      expect(period.anyOf).toContainEqual({ type: 'string', enum: ['week', 'month'] });
      expect(param(op, 'period')?.description).toMatch(/any other value is accepted and means `week`/i);
      for (const bound of ['start', 'end']) expect(param(op, bound)?.schema).toMatchObject({ format: 'date-time' });
    }
  });

  it('puts enums and the validation issues in the schemas', () => {
    const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
    const error = JSON.stringify(schemas.ErrorResponse);
    expect(error).toContain('"issues"');
    const issues = (schemas.ErrorResponse as { properties: { error: { properties: { details: { properties: { issues: Json } } } } } })
      .properties.error.properties.details.properties.issues;
    expect(issues).toMatchObject({
      type: 'array',
      items: { anyOf: [{ required: ['path', 'message'] }, { required: ['questionId', 'code', 'message'] }] },
    });
    const staff = JSON.stringify(byId('getStaffMe').responses['200']);
    expect(staff).toMatch(/"const":"active"|"enum":\["active"/);
    expect(staff).toMatch(/"const":"inactive"|"inactive"\]/);
    const shift = JSON.stringify(byId('getShift').responses['200']);
    expect(shift).toContain('"enum":["manual","player_left","server_shutdown","heartbeat_timeout"]');
    expect(shift).toContain('"enum":["active","completed"]');
    const stop = JSON.stringify(byId('stopShift').requestBody);
    expect(stop).toContain('"enum":["manual","player_left","server_shutdown"]');
    const integration = JSON.stringify(byId('getIntegration').responses['200']);
    expect(integration).toContain('"activity:write"');
  });

  it('describes every response, with examples of requests and responses, errors included', () => {
    for (const [method, path, op] of ops) {
      const where = `${method} ${path}`;
      for (const p of op.parameters ?? []) expect(p.example ?? p.examples, `${where} ${p.name}`).toBeDefined();
      if (op.requestBody) expect(hasExample(op.requestBody.content['application/json']), where).toBe(true);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description, `${where} ${status}`).not.toBe('Default Response');
        // JSON, or the one other media type an operation answers with (the metrics exposition).
        expect(hasExample(Object.values(response.content ?? {})[0]), `${where} ${status}`).toBe(true);
        if (Number(status) < 400) continue;
        // Each error response names its codes; its examples are exactly those codes.
        const codes = response['x-error-codes'] as string[];
        expect(codes.length, `${where} ${status}`).toBeGreaterThan(0);
        const examples = response.content!['application/json']!.examples as Record<string, { value: { error: { code: string } } }>;
        expect(Object.values(examples).map((e) => e.value.error.code)).toEqual(codes);
      }
    }
    expect(byId('startShift').responses['403']!['x-error-codes']).toEqual(
      expect.arrayContaining(['insufficient_scope', 'universe_not_allowed', 'staff_inactive']),
    );
    expect(byId('stopShift').responses['409']!['x-error-codes']).toContain('shift_not_active');
  });

  it('documents the 401 challenge, the answers of unmatched requests, and an absolute server', () => {
    for (const [method, path, op] of ops.filter(([, p]) => p.startsWith('/v1/'))) {
      expect(op.responses['401']?.headers?.['www-authenticate'], `${method} ${path}`).toMatchObject({ required: true });
    }
    const responses = (document.components as { responses: Record<string, { headers: Record<string, Json> }> }).responses;
    expect(responses.MethodNotAllowed?.headers.Allow).toMatchObject({ required: true });
    expect(responses.NotFound).toBeDefined();
    expect(document['x-unmatched-requests']).toMatchObject({
      notFound: { $ref: '#/components/responses/NotFound' },
      methodNotAllowed: { $ref: '#/components/responses/MethodNotAllowed' },
    });
    const servers = document.servers as Array<{ url: string }>;
    expect(servers).toHaveLength(1);
    expect(servers[0]!.url).toMatch(/^https?:\/\/[^/]+$/);
    expect(Object.keys(document.paths as Json).filter((p) => p.startsWith('/docs'))).toEqual([]);
  });

  it('names PUBLIC_BASE_URL in servers when it is set, else the listening address', async () => {
    const configured = await createTestContext(kind, { env: { PUBLIC_BASE_URL: 'https://gateway.example.com/' } });
    try {
      const res = await configured.inject({ method: 'GET', url: '/openapi.json' });
      expect((res.json() as Json).servers).toEqual([
        { url: 'https://gateway.example.com', description: expect.stringContaining('PUBLIC_BASE_URL') },
      ]);
    } finally {
      await configured.close();
    }
    expect(serverUrl(undefined, null, { host: '127.0.0.1', port: 3000 })).toBe('http://127.0.0.1:3000');
    expect(serverUrl(undefined, { address: '0.0.0.0', port: 8080, family: 'IPv4' }, ctx.config)).toBe('http://127.0.0.1:8080');
    expect(serverUrl(undefined, { address: '::', port: 8080, family: 'IPv6' }, ctx.config)).toBe('http://[::1]:8080');
  });

  it('answers 401 with an RFC 6750 challenge: bare without a credential, invalid_token for a rejected one', async () => {
    for (const [method, url] of WRITES) {
      const none = await ctx.inject({ method, url, payload: {} });
      expect(none.statusCode, url).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="workspace-gateway"');
      const rejected = await ctx.inject({ method, url, headers: bearer('wsk_test_notakeynotakeynotakeynotakeynotakey1'), payload: {} });
      expect(rejected.statusCode, url).toBe(401);
      expect(rejected.headers['www-authenticate']).toBe('Bearer realm="workspace-gateway", error="invalid_token"');
      const basic = await ctx.inject({ method, url, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
      expect(basic.headers['www-authenticate']).toBe('Bearer realm="workspace-gateway"');
    }
    const read = await ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(token) });
    expect(read.statusCode).toBe(401);
    expect(read.headers['www-authenticate']).toBe('Bearer realm="workspace-gateway", error="invalid_token"');
    const ok = await ctx.inject({ method: 'GET', url: '/v1/integration', headers: bearer(fixture.keys.test.secret) });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['www-authenticate']).toBeUndefined();
  });

  it('keeps the idempotency key\'s own codes and its place after authentication and the body', async () => {
    for (const [method, url, auth] of WRITES) {
      const credential = bearer(auth === 'user' ? token : fixture.keys.test.secret);
      const headers = { ...credential, 'content-type': 'application/json' };
      const start = url.endsWith('/start')
        ? { gameUserId: fixture.staff.alice.gameUserId, universeId: '42', placeId: '1', serverId: 's-1' }
        : url.endsWith('/review')
          ? { score: 50 }
          : {};
      const code = async (extra: Record<string, string>, payload: unknown = start) => {
        const res = await ctx.inject({ method, url, headers: { ...headers, ...extra }, payload: JSON.stringify(payload) });
        return [res.statusCode, (res.json() as { error?: { code: string } }).error?.code];
      };
      expect(await code({}), url).toEqual([400, 'idempotency_key_required']);
      expect(await code({ 'idempotency-key': '' }), url).toEqual([400, 'idempotency_key_required']);
      expect(await code({ 'idempotency-key': 'k'.repeat(256) }), url).toEqual([400, 'invalid_idempotency_key']);
      expect(await code({}, { unknownProperty: true }), url).toEqual([400, 'validation_failed']);
      const unauthenticated = await ctx.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: '{"x":1}' });
      expect(unauthenticated.statusCode, url).toBe(401);
    }
  });
});
