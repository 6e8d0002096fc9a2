/**
 * A client generated from the served document (openapi-typescript, used through openapi-fetch) is as strict as the
 * service: a write without Idempotency-Key, or a query parameter of the wrong type, does not compile. The fixture
 * marks each such call with `@ts-expect-error`, so a document that stopped requiring them would fail the type check
 * (an unused directive is an error), and the correct calls must compile too. The same client then runs against the
 * real server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { checkedFetch } from '../helpers/contract.ts';
import { bearer, buildFixture, dashboardToken, REVIEWER_USER_ID, seed } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

const FIXTURE = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });
const start = { gameUserId: '1001', universeId: '42', placeId: '7', serverId: 'srv-1' };
const shift = { path: { shiftId: '0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b' } };
const submission = { path: { submissionId: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e' } };

export async function rejectedAtCompileTime(): Promise<void> {
  // @ts-expect-error start without Idempotency-Key
  await client.POST('/v1/activity/shifts/start', { body: start });
  // @ts-expect-error heartbeat without Idempotency-Key
  await client.POST('/v1/activity/shifts/{shiftId}/heartbeat', { params: shift });
  // @ts-expect-error stop without Idempotency-Key
  await client.POST('/v1/activity/shifts/{shiftId}/stop', { params: shift, body: { reason: 'manual' } });
  // @ts-expect-error accept without Idempotency-Key
  await client.POST('/v1/applications/submissions/{submissionId}/accept', { params: submission });
  // @ts-expect-error mark-under-review without Idempotency-Key
  await client.POST('/v1/applications/submissions/{submissionId}/mark-under-review', { params: submission });
  // @ts-expect-error reject without Idempotency-Key
  await client.POST('/v1/applications/submissions/{submissionId}/reject', { params: submission });
  // @ts-expect-error review update without Idempotency-Key
  await client.PATCH('/v1/applications/submissions/{submissionId}/review', { params: submission, body: { score: 1 } });
  // @ts-expect-error the active list's limit is an integer
  await client.GET('/v1/activity/shifts/active', { params: { query: { limit: 'ten' } } });
  // @ts-expect-error a client may not send heartbeat_timeout as a stop reason
  await client.POST('/v1/activity/shifts/{shiftId}/stop', { params: { ...shift, header: { 'idempotency-key': 'k' } }, body: { reason: 'heartbeat_timeout' } });
}

export async function accepted(): Promise<string | undefined> {
  const key = { 'idempotency-key': 'start-1', 'x-correlation-id': 'c-1' };
  const started = await client.POST('/v1/activity/shifts/start', { params: { header: key }, body: start });
  await client.POST('/v1/activity/shifts/{shiftId}/heartbeat', { params: { ...shift, header: key } });
  await client.PATCH('/v1/applications/submissions/{submissionId}/review', {
    params: { ...submission, header: key },
    body: { score: 87.5 },
  });
  await client.GET('/v1/activity/shifts/active', { params: { query: { limit: 10 } } });
  await client.GET('/v1/activity/leaderboard', { params: { query: { includeInactive: true, period: 'month' } } });
  const status: 'active' | undefined = started.data?.data.shift.status;
  const code: string | undefined = started.error?.error.code;
  return status ?? code;
}
`;

/** Type-checks the fixture against the generated types; returns the diagnostics as readable lines. */
function typeCheck(dir: string): string[] {
  const fetchTypes = resolve('node_modules/openapi-fetch');
  const program = ts.createProgram([join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
    paths: { 'openapi-fetch': [fetchTypes] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${d.file?.fileName ?? ''}:${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe.each(STORE_KINDS)('a client generated from the served document (%s)', (kind) => {
  let ctx: TestContext;
  let base: string;
  let dir: string;
  const fixture = buildFixture();

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    await seed(ctx, fixture);
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'wsg-client-'));
    const document = (await checkedFetch(base, '/openapi.json')).json() as Parameters<typeof openapiTS>[0];
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(document)));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a write without Idempotency-Key at compile time, and compiles the correct calls', () => {
    writeFileSync(join(dir, 'client.ts'), FIXTURE);
    expect(typeCheck(dir)).toEqual([]);
    // Without the directives, exactly the marked calls fail to compile.
    const unmarked = FIXTURE.replaceAll(/^\s*\/\/ @ts-expect-error.*$/gm, '');
    writeFileSync(join(dir, 'client.ts'), unmarked);
    const lines = FIXTURE.split('\n');
    const marked = lines.flatMap((line, index) => (line.includes('@ts-expect-error') ? [index + 2] : []));
    const failing = typeCheck(dir).map((error) => Number(/:(\d+) /.exec(error)?.[1]));
    expect(failing).toEqual(marked);
  }, 120_000);

  it('works against the real server, where a key-less write is answered as the types foretold', async () => {
    const client = createClient<Record<string, never>>({ baseUrl: base });
    const raw = client as unknown as {
      POST(path: string, init: object): Promise<{ response: Response; data?: unknown; error?: unknown }>;
    };
    const key = bearer(fixture.keys.test.secret);
    const body = { gameUserId: fixture.staff.alice.gameUserId, universeId: '42', placeId: '7', serverId: 'srv-1' };
    const started = await raw.POST('/v1/activity/shifts/start', {
      headers: { ...key, 'idempotency-key': 'client-start-1' },
      body,
    });
    expect(started.response.status).toBe(200);
    expect(started.data).toMatchObject({ data: { shift: { status: 'active' }, existing: false } });
    const keyless = await raw.POST('/v1/activity/shifts/start', { headers: key, body });
    expect(keyless.response.status).toBe(400);
    expect(keyless.error).toMatchObject({ error: { code: 'idempotency_key_required' } });
    const token = await dashboardToken(REVIEWER_USER_ID);
    const review = await raw.POST('/v1/applications/submissions/4b3a2918-0f7e-4d6c-8b5a-493827160f5e/reject', {
      headers: bearer(token),
    });
    expect(review.response.status).toBe(400);
    expect(review.error).toMatchObject({ error: { code: 'idempotency_key_required' } });
  });
});
