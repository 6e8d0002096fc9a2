/**
 * How the gateway serves the console: every path under /console is the one page, its assets come from the files
 * read at startup, and every answer carries the console's security headers; none of it needs a credential or
 * appears in the OpenAPI document.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, loadConsoleFiles } from '../../src/http/console-page.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { STORE_KINDS } from '../helpers/stores.ts';

const PAGE = readFileSync(new URL('../../src/console/index.html', import.meta.url), 'utf8');

describe('the files the console is made of', () => {
  it('are the page and every script, style sheet and icon under assets/, each with its type', () => {
    const files = loadConsoleFiles();
    expect(files.page.contentType).toBe('text/html; charset=utf-8');
    expect(files.assets.get('app.js')?.contentType).toBe('text/javascript; charset=utf-8');
    expect(files.assets.get('pages/submission.js')?.contentType).toBe('text/javascript; charset=utf-8');
    expect(files.assets.get('console.css')?.contentType).toBe('text/css; charset=utf-8');
    expect(files.assets.get('icon.svg')?.contentType).toBe('image/svg+xml');
  });

  it('name only files of the gateway: the page loads nothing from elsewhere and runs no inline script or style', () => {
    const addresses = [...PAGE.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(addresses.length).toBeGreaterThanOrEqual(3);
    for (const address of addresses) expect(address).toMatch(/^(\/console\/assets\/|#)/);
    expect(PAGE).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(PAGE).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });
});

describe.each(STORE_KINDS)('GET /console (%s)', (kind) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

  it('answers every console path with the page, without a credential, and with the security headers', async () => {
    for (const url of ['/console', '/console/', '/console/sign-in', '/console/applications', '/console/applications/x/y', '/console/time-off?status=pending']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBe(PAGE);
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-request-id']).toMatch(/^req_/);
    }
    const csp = CONSOLE_CSP;
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
  });

  it('serves each asset with its type and an ETag, and answers a matching If-None-Match with 304', async () => {
    const files = loadConsoleFiles();
    for (const [name, file] of files.assets) {
      const res = await get(`/console/assets/${name}`);
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-type']).toBe(file.contentType);
      expect(res.rawPayload.equals(file.body)).toBe(true);
      expect(res.headers.etag).toBe(file.etag);
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    }
    const first = await get('/console/assets/app.js');
    const again = await get('/console/assets/app.js', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const page = await get('/console/applications');
    expect((await get('/console/time-off', { 'if-none-match': String(page.headers.etag) })).statusCode).toBe(304);
    expect((await get('/console/assets/app.js', { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await ctx.app.inject({ method: 'HEAD', url: '/console/assets/console.css' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.body).toBe('');
  });

  it('refuses any other file, a way out of the folder and other methods with the error envelope', async () => {
    // A way out of assets/ finds no file: 404, or (once the client has resolved it to a console path) the page.
    for (const url of ['/console/assets/../index.html', '/console/assets/../../http/console-page.ts']) {
      const res = await get(url);
      expect([404, 200], url).toContain(res.statusCode);
      if (res.statusCode === 200) expect(res.body).toBe(PAGE);
      else expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    for (const url of [
      '/console/assets/nothing.js',
      '/console/assets/%2e%2e/%2e%2e/http/console-page.ts',
      '/console/assets/..%2f..%2fhttp%2fconsole-page.ts',
      '/console/assets/pages',
      '/console/assets/pages/',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    expect((await get('/console/assets/nothing.js')).headers['content-security-policy']).toBe(CONSOLE_CSP);
    const post = await ctx.app.inject({ method: 'POST', url: '/console/sign-in', payload: {} });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toContain('GET');
    expect(post.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it('keeps its routes out of the OpenAPI document', async () => {
    const document = (await get('/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/console'))).toEqual([]);
  });
});
