/**
 * The console's staff side in headless Chromium on both stores: the roster with "On duty" and each week's
 * progress, a staff member's page with the last 8 weeks as a chart and as text, the leaderboard and who is on
 * duty; for a member with no permission at all, at 1280 and 360 px, with axe-core finding no violation, by keyboard,
 * with hostile names inert and errors shown.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffDocument } from '../../src/provisioning/schema.ts';
import { newId } from '../../src/shared/ids.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { chromiumMissing, inPage, launchChromium } from '../helpers/browser.ts';
import { runCli } from '../helpers/cli.ts';
import { buildFixture, READONLY_USER_ID, seed, type Fixture } from '../helpers/fixtures.ts';
import { STORE_KINDS, type StoreKind } from '../helpers/stores.ts';
import { addHistory, completedShift, insertActiveShift, notice } from '../features/activity/reports/helpers.ts';
import { IMAGE_ANSWER, watchedPage, type WatchedPage } from './world.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const AXE_SOURCE_URL = new URL('../../node_modules/axe-core/axe.min.js', import.meta.url);

interface AxeResults {
  readonly violations: ReadonlyArray<{ readonly id: string; readonly impact: string | null; readonly nodes: ReadonlyArray<{ readonly target: readonly unknown[] }> }>;
}

/** Every axe-core violation of the page as it is now, whatever its impact. */
async function axeViolations(page: Page): Promise<string[]> {
  const { readFileSync } = await import('node:fs');
  await page.evaluate(readFileSync(AXE_SOURCE_URL, 'utf8'));
  const result = await inPage<AxeResults>(page, 'axe.run()');
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The hour and minute of an instant in a time zone, as the page's locale writes them (the reference a shown start
 * must contain: a page that ignored the zone would show the reader's).
 */
const clockIn = (page: Page, iso: string, timeZone: string) =>
  inPage<string>(page, `new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: ${JSON.stringify(timeZone)} }).format(new Date(${JSON.stringify(iso)}))`);

/** Whether the page scrolls sideways (it must not, at 360 px). */
const scrollsSideways = (page: Page) => inPage<boolean>(page, 'document.documentElement.scrollWidth > window.innerWidth');

interface StaffWorld {
  readonly ctx: TestContext;
  readonly base: string;
  readonly fixture: Fixture;
  /** When Alice's shift under way started (ISO). */
  readonly aliceStartedAt: string;
}

async function staffWorld(kind: StoreKind): Promise<StaffWorld> {
  const now = Date.now();
  const ctx = await createTestContext(kind, { now });
  const base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const fixture = buildFixture({ timezone: 'Europe/Berlin' });
  const { alice, bob } = fixture.ids.staff;
  const hostile: StaffDocument = { id: newId(), displayName: IMAGE_ANSWER, gameUserId: '4242', gameUsername: 'hostile', status: 'active' };
  const iso = (ms: number) => new Date(ms).toISOString();
  addHistory(fixture, {
    staff: [hostile],
    shifts: [
      ...Array.from({ length: 10 }, (_, i) => completedShift(fixture, alice, iso(now - (i * 4 + 1) * DAY), iso(now - (i * 4 + 1) * DAY + (1 + (i % 3)) * HOUR), 'live')),
      completedShift(fixture, bob, iso(now - 2 * DAY), iso(now - 2 * DAY + 3 * HOUR), 'live'),
    ],
    notices: [notice(alice, iso(now - 20 * DAY), iso(now - 16 * DAY), 'approved', 'a private reason')],
  });
  await seed(ctx, fixture);
  const aliceStartedAt = iso(now - 25 * 60_000);
  await insertActiveShift(ctx, fixture, { staffId: alice, startedAt: aliceStartedAt, lastSeenAt: iso(now - 10_000), environment: 'live' });
  return { ctx, base, fixture, aliceStartedAt };
}

async function signIn(world: StaffWorld, page: Page, userId: string): Promise<void> {
  const result = await runCli(['console-link', '--user', userId], { DATABASE_URL: world.ctx.database.url, PUBLIC_BASE_URL: world.base });
  expect(result.code, result.stderr).toBe(0);
  await page.goto((JSON.parse(result.stdout) as { url: string }).url);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(chromiumMissing).each(STORE_KINDS)('the console\'s staff side (%s)', (kind) => {
  let world: StaffWorld;
  const pages: WatchedPage[] = [];
  const open = async (width: number) => {
    const watched = await watchedPage(browser, width);
    pages.push(watched);
    return watched;
  };

  beforeAll(async () => {
    world = await staffWorld(kind);
  });
  afterAll(async () => {
    for (const watched of pages) await watched.close();
    await world?.ctx.close();
    for (const watched of pages) {
      expect(watched.requests.filter((url) => !url.startsWith(`${world.base}/`))).toEqual([]);
      expect(watched.errors).toEqual([]);
      expect(watched.dialogs).toEqual([]);
    }
  });

  it.each([1280, 360])('at %i px: every page of a member with no permission, without a violation', async (width) => {
    const { page } = await open(width);
    await signIn(world, page, READONLY_USER_ID);
    // Staff is the first page of a member who may do nothing else.
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    for (const name of ['Staff', 'Leaderboard', 'On duty']) expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(1);
    for (const name of ['Applications', 'Time off', 'Stats']) expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0);
    const alice = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Alice', exact: true }) });
    await expect(alice.innerText()).resolves.toMatch(/On duty · 2[45] min/);
    // When the shift started, as a clock time of the workspace's time zone (Europe/Berlin, not the browser's UTC).
    const berlinStart = await clockIn(page, world.aliceStartedAt, 'Europe/Berlin');
    expect(berlinStart).not.toBe(await clockIn(page, world.aliceStartedAt, 'UTC'));
    const since = alice.locator(`time[datetime="${world.aliceStartedAt}"]`);
    await expect(since.innerText()).resolves.toContain(berlinStart);
    await expect(alice.innerText()).resolves.toMatch(/On shift since/);
    await expect(page.getByRole('listitem').filter({ hasText: 'Bob' }).innerText()).resolves.toContain('3 h of 1 h (300 %)');
    expect(await page.locator('main').getByText('On duty', { exact: false }).count()).toBe(1);
    // A hostile display name is text.
    await page.getByRole('link', { name: IMAGE_ANSWER, exact: true }).waitFor();
    expect(await inPage<unknown>(page, 'window.__consoleInjected')).toBeUndefined();
    expect(await axeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);

    await alice.getByRole('link', { name: 'Alice' }).click();
    await page.getByRole('heading', { name: 'Alice', level: 1 }).waitFor();
    const chart = page.getByRole('img', { name: /Minutes worked in the last 8 weeks/ });
    await chart.waitFor();
    expect(await page.locator('svg.week-chart rect').count()).toBe(8);
    expect(await page.getByRole('table').getByRole('row').count()).toBe(9);
    expect(await page.getByRole('list', { name: 'Recent shifts' }).getByRole('listitem').count()).toBe(10);
    await expect(page.getByRole('list', { name: 'Time off' }).innerText()).resolves.toContain('Approved');
    await expect(page.locator('main').innerText()).resolves.not.toContain('a private reason');
    await page.getByText('No rank changes recorded.').waitFor();
    expect(await page.getByRole('button', { name: 'Change rank' }).count()).toBe(0);
    await expect(page.locator('main').innerText()).resolves.toContain('Europe/Berlin');
    expect(await axeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);

    await page.getByRole('link', { name: 'Leaderboard', exact: true }).click();
    await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
    await expect(page.getByLabel('Period', { exact: true }).inputValue()).resolves.toBe('week');
    await expect(page.getByRole('list', { name: 'Ranking' }).getByRole('listitem').first().innerText()).resolves.toMatch(/^1\. /);
    expect(await axeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByLabel('Period', { exact: true }).selectOption('month');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/period=month/);
    await page.getByRole('list', { name: 'Ranking' }).waitFor();

    await page.getByRole('link', { name: 'On duty', exact: true }).click();
    await page.getByRole('heading', { name: 'On duty', level: 1 }).waitFor();
    const underWay = page.getByRole('list', { name: 'Shifts under way' });
    await expect(underWay.innerText()).resolves.toContain('Alice');
    await expect(underWay.locator(`time[datetime="${world.aliceStartedAt}"]`).innerText()).resolves.toContain(berlinStart);
    expect(await axeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByLabel('Environment', { exact: true }).selectOption('test');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('Nobody is on duty right now.', { exact: false }).waitFor();
  });

  it('remembers the environment the member chose, from one staff page to the next, as the queue does', async () => {
    const { page } = await open(1280);
    await signIn(world, page, READONLY_USER_ID);
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    const environment = page.getByLabel('Environment', { exact: true });
    await expect(environment.inputValue()).resolves.toBe('live');
    await environment.selectOption('test');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/environment=test/);
    // Alice is on shift in live only.
    await page.getByRole('link', { name: 'Alice', exact: true }).waitFor();
    expect(await page.locator('main').getByText('On duty', { exact: false }).count()).toBe(0);

    for (const [link, heading] of [['Leaderboard', 'Leaderboard'], ['On duty', 'On duty'], ['Staff', 'Staff']] as const) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expect(environment.inputValue(), heading).resolves.toBe('test');
    }
    await page.getByRole('link', { name: 'Alice', exact: true }).click();
    await page.getByRole('heading', { name: 'Alice', level: 1 }).waitFor();
    await expect(environment.inputValue()).resolves.toBe('test');
    await page.getByText('No completed shifts in this environment yet.', { exact: false }).waitFor();
    // Choosing live on a staff member's page is remembered too.
    await environment.selectOption('live');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('list', { name: 'Recent shifts' }).waitFor();
    await page.getByRole('link', { name: 'Back to the staff' }).click();
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    await expect(environment.inputValue()).resolves.toBe('live');
  });

  it('works by keyboard alone, and shows an API error as the API words it', async () => {
    const { page } = await open(1280);
    await signIn(world, page, READONLY_USER_ID);
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Leaderboard', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
    // Once the page has its data, the navigation moves the focus to the heading; Tab goes on to the page's first
    // control. (The heading is drawn before the data arrives, so the focus is waited for, not read at once.)
    await page.waitForFunction('document.activeElement?.tagName === "H1"', undefined, { timeout: 10_000 });
    expect(await inPage<string>(page, 'document.activeElement?.tagName')).toBe('H1');
    await page.keyboard.press('Tab');
    expect(await inPage<string>(page, 'document.activeElement?.getAttribute("name")')).toBe('period');

    await page.goto(`${world.base}/console/staff/${newId()}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.innerText()).resolves.toMatch(/^The staff member was not found\. \(request req_/);
  });
});
