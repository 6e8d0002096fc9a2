import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

describe.each(STORE_KINDS)('metadata routes (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('GET /health answers ok with the service name and the clock time', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', service: 'workspace-gateway', timestamp: '2026-03-11T12:00:00.000Z' });
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]{16,}$/);
  });

  it('GET /version reports api version, build and deployment', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/version' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ service: 'workspace-gateway', apiVersion: 'v1', build: 'test-build', environment: 'test' });
  });

  it('GET /openapi.json is an OpenAPI 3.1 document, version 1.0.0, with both bearer schemes', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'dashboardToken']);
    expect(doc.components.schemas.ErrorResponse).toBeDefined();
    for (const [path, item] of Object.entries<Record<string, { operationId?: string; summary?: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        expect(op.summary, `${method} ${path}`).toBeTruthy();
      }
    }
  });

  it('unknown routes are 404 not_found in the error envelope', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/nope' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body.error.code).toBe('not_found');
    expect(body.error.requestId).toBe(res.headers['x-request-id']);
  });

  it('a known path with the wrong method is 405 method_not_allowed', async () => {
    const res = await ctx.inject({ method: 'DELETE', url: '/health' });
    expect(res.statusCode).toBe(405);
    expect(res.json().error.code).toBe('method_not_allowed');
    expect(res.headers.allow).toContain('GET');
  });
});
