/**
 * GET /docs in a real headless browser: the reference page loads with every request going to the gateway alone
 * (the test fails on any other request), and it shows every operation of the served document.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { checkedFetch } from '../helpers/contract.ts';
import { chromiumMissing, launchChromium } from '../helpers/browser.ts';

interface DocumentedOperation {
  readonly operationId: string;
  readonly summary: string;
}

type PathItems = Record<string, Record<string, Partial<DocumentedOperation>>>;

/** The document's operations and its webhooks' (the page shows both). */
function operationsOf(document: { paths: PathItems; webhooks?: PathItems }) {
  const out: DocumentedOperation[] = [];
  for (const item of [...Object.values(document.paths), ...Object.values(document.webhooks ?? {})]) {
    for (const op of Object.values(item)) out.push({ operationId: op.operationId ?? '', summary: op.summary ?? '' });
  }
  return out;
}

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

// The page and the document it shows read no store: one gateway, on the embedded store, serves them as any other would.
describe.skipIf(chromiumMissing)('the reference page at /docs', () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('loads from the gateway alone and shows every operation and webhook of the served document', async () => {
    const document = (await checkedFetch(base, '/openapi.json')).json() as Parameters<typeof operationsOf>[0];
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThanOrEqual(17 + 7);

    const context = await browser.newContext({ serviceWorkers: 'block' });
    const elsewhere: string[] = [];
    const failed: string[] = [];
    // Every request the page makes is checked here: the gateway's pass, anything else is recorded and refused.
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(`${base}/`)) return route.continue();
      elsewhere.push(url);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.on('requestfailed', (request) => {
      if (request.url().startsWith(`${base}/`)) failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`);
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      const response = await page.goto(`${base}/docs`, { waitUntil: 'load', timeout: 60_000 });
      expect(response?.status()).toBe(200);
      await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 60_000 });
      await page.waitForLoadState('networkidle', { timeout: 60_000 });

      expect(await page.locator('.opblock').count()).toBe(operations.length);
      for (const { operationId, summary } of operations) {
        const block = page.locator('.opblock', { has: page.getByText(operationId, { exact: true }) });
        await expect(block.first().isVisible(), operationId).resolves.toBe(true);
        await expect(block.first().getByText(summary, { exact: true }).isVisible(), summary).resolves.toBe(true);
      }
      const title = await page.locator('.info .title').first().innerText();
      expect(title).toContain('workspace-gateway');
      // The top bar names the product: its logo is the gateway's own mark, and no field offers another document.
      const logo = page.locator('.topbar img').first();
      expect(await logo.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
      const mark = Buffer.from((await logo.getAttribute('src'))?.split(',')[1] ?? '', 'base64').toString('utf8');
      expect(mark).toContain('workspace-gateway');
      expect(await page.locator('.topbar .download-url-wrapper').isVisible()).toBe(false);
      if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: true });
    } finally {
      await context.close();
    }
    expect(elsewhere).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('serves its assets itself, and keeps the 404/405 rules and the document free of its routes', async () => {
    const document = (await checkedFetch(base, '/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/docs'))).toEqual([]);

    const html = await fetch(`${base}/docs`);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.headers.get('x-request-id')).toMatch(/^req_/);
    const text = await html.text();
    const assets = [...text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset, 'a relative address, served here').not.toMatch(/^(?:[a-z]+:)?\/\//i);
      const res = await fetch(new URL(asset, `${base}/docs`));
      await res.arrayBuffer();
      expect(res.status, asset).toBe(200);
    }

    const post = await checkedFetch(base, '/docs', { method: 'POST' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toContain('GET');
    const missing = await checkedFetch(base, '/docs/static/no-such-file.js');
    expect(missing.statusCode).toBe(404);
    expect((missing.json() as { error: { code: string } }).error.code).toBe('not_found');
  });
});
