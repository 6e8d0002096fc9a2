/**
 * Who gets into the console, and what they are offered, in headless Chromium on both stores: a sign-in link works
 * once and for 10 minutes (the page says so otherwise, and says how to get one); a member sees only the pages and
 * actions their permissions allow.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, seriousAxeViolations } from '../helpers/browser.ts';
import { READONLY_USER_ID, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { consoleLink, consoleWorld, REVIEW_ONLY_USER_ID, watchedPage, type ConsoleWorld, type WatchedPage } from './world.ts';

const REFUSED = 'This sign-in link cannot be used: it was used already, it has expired, or it is incomplete.';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(chromiumMissing).each(STORE_KINDS)('signing in to the console and what a member is offered (%s)', (kind) => {
  let world: ConsoleWorld;
  const pages: WatchedPage[] = [];
  const open = async (width?: number) => {
    const watched = await watchedPage(browser, width);
    pages.push(watched);
    return watched;
  };

  beforeAll(async () => {
    world = await consoleWorld(kind);
  });
  afterAll(async () => {
    for (const watched of pages) await watched.close();
    await world?.close();
    for (const watched of pages) {
      expect(watched.requests.filter((url) => !url.startsWith(`${world.base}/`))).toEqual([]);
      expect(watched.errors).toEqual([]);
      expect(watched.dialogs).toEqual([]);
    }
  });

  it('without a code, says how to get a sign-in link', async () => {
    const { page } = await open();
    await page.goto(`${world.base}/console/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(page.url()).toBe(`${world.base}/console/sign-in`);
    const text = await page.locator('main').innerText();
    expect(text).toContain('/review');
    expect(text).toContain('workspace-gateway console-link --user <your user id>');
    expect(text).toContain('10 minutes');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('refuses a code used twice, and removes it from the address bar all the same', async () => {
    const link = await consoleLink(world, REVIEWER_USER_ID);
    const first = await open();
    await first.page.goto(link.url);
    await first.page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();

    const second = await open();
    await second.page.goto(link.url);
    const alert = second.page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toBe(`${REFUSED} Ask for a new one.`);
    expect(second.page.url()).toBe(`${world.base}/console/sign-in`);
    expect(await second.page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
    expect(await second.page.locator('main').innerText()).toContain('console-link');
    expect(await seriousAxeViolations(second.page)).toEqual([]);
  });

  it('refuses an expired code', async () => {
    const link = await consoleLink(world, REVIEWER_USER_ID);
    // The command made the link on the real clock; the gateway's is moved to just past its expiry.
    const moved = Date.parse(link.expiresAt) + 1_000 - world.ctx.clock.now();
    expect(moved).toBeGreaterThan(10 * 60_000);
    world.ctx.clock.advance(moved);
    try {
      const { page } = await open();
      await page.goto(link.url);
      await page.getByRole('alert').filter({ hasText: REFUSED }).waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    } finally {
      world.ctx.clock.advance(-moved);
    }
  });

  it('refuses a made-up code', async () => {
    const { page } = await open();
    await page.goto(`${world.base}/console/sign-in#code=${'x'.repeat(40)}`);
    await page.getByRole('alert').filter({ hasText: REFUSED }).waitFor();
    expect(page.url()).toBe(`${world.base}/console/sign-in`);
  });

  it('offers a reviewer who may not decide no decision, no staff profile and no time off', async () => {
    const link = await consoleLink(world, REVIEW_ONLY_USER_ID);
    const { page } = await open(360);
    await page.goto(link.url);
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Applications', exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Stats', exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Time off', exact: true }).count()).toBe(0);
    // One workspace: its name, no selector.
    expect(await page.getByLabel('Workspace', { exact: true }).count()).toBe(0);
    await expect(page.locator('header').innerText()).resolves.toContain('Acme workspace');

    await page.getByRole('link', { name: 'hostile display', exact: true }).click();
    await page.getByRole('heading', { name: 'Application from hostile display' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save review' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Mark under review' }).count()).toBe(1);
    for (const name of ['Accept', 'Reject', 'Approve', 'Deny']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await page.getByLabel('Create staff profile').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto(`${world.base}/console/time-off`);
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  });

  it('offers a member with no permission the staff side only', async () => {
    const link = await consoleLink(world, READONLY_USER_ID);
    const { page } = await open();
    await page.goto(link.url);
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    for (const name of ['Applications', 'Time off', 'Stats']) {
      expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0);
    }
    for (const name of ['Staff', 'Leaderboard', 'On duty']) {
      expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(1);
    }
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
  });
});
