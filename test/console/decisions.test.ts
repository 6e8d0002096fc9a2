/**
 * The decisions of the console in headless Chromium, on both stores: what accepting does when the reviewer leaves
 * the "Create staff profile" box as it is (the workspace's `createStaffProfileOnAccept` decides, and the page says
 * which way); decisions that cannot be undone ask first; the decision is one tap away on a phone; "Back to the
 * queue" keeps the filters; the environment filter remembers the member's choice and says what it means; times in
 * the workspace's time zone, durations on time-off cards, the workspace in the header; Stats fits 360 px.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, inPage, launchChromium } from '../helpers/browser.ts';
import { REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { apiAs, consoleLink, consoleWorld, watchedPage, type ConsoleWorld, type WatchedPage } from './world.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

interface Detail {
  readonly data: { readonly submission: { readonly status: string; readonly staffProfileId: string | null } };
}

describe.skipIf(chromiumMissing).each(STORE_KINDS)('accepting in the console follows the workspace setting (%s)', (kind) => {
  describe.each([true, false])('createStaffProfileOnAccept: %s', (setting) => {
    let world: ConsoleWorld;
    let watched: WatchedPage;
    beforeAll(async () => {
      world = await consoleWorld(kind, { createStaffProfileOnAccept: setting });
      watched = await watchedPage(browser);
    });
    afterAll(async () => {
      await watched?.close();
      await world?.close();
    });

    it('the box starts from the setting and says so; accepting with it untouched does what the workspace says', async () => {
      const { page } = watched;
      await page.goto((await consoleLink(world, REVIEWER_USER_ID)).url);
      await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
      await page.goto(`${world.base}/console/applications/${world.submissions.plain}`);
      await page.getByRole('heading', { name: 'Application from plain display' }).waitFor();

      const box = page.getByLabel('Create staff profile');
      expect(await box.isChecked()).toBe(setting);
      const hint = setting
        ? 'This workspace creates a staff profile on acceptance unless you change this.'
        : 'This workspace does not create a staff profile on acceptance unless you change this.';
      expect(await page.getByText(hint).isVisible()).toBe(true);
      // The hint is the box's description for a screen reader.
      expect(await box.getAttribute('aria-describedby')).toBe(await page.getByText(hint).getAttribute('id'));

      const sent = page.waitForRequest((request) => request.url().endsWith('/accept'));
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByRole('button', { name: 'Confirm: accept' }).click();
      expect(((await sent).postDataJSON() as { createStaffProfile?: boolean }).createStaffProfile).toBe(setting);
      await page.getByRole('status').filter({ hasText: /^Accepted\./ }).waitFor();

      const api = await apiAs(world, REVIEWER_USER_ID);
      const detail = (await api(`/v1/applications/submissions/${world.submissions.plain}`)).json() as Detail;
      expect(detail.data.submission.status).toBe('accepted');
      if (setting) expect(detail.data.submission.staffProfileId).not.toBeNull();
      else expect(detail.data.submission.staffProfileId).toBeNull();
      expect(watched.errors).toEqual([]);
    });
  });
});

describe.skipIf(chromiumMissing).each(STORE_KINDS)('the console a newcomer meets (%s)', (kind) => {
  let world: ConsoleWorld;
  let watched: WatchedPage;
  beforeAll(async () => {
    world = await consoleWorld(kind, { timezone: 'Asia/Tokyo' });
    watched = await watchedPage(browser);
    await watched.page.goto((await consoleLink(world, REVIEWER_USER_ID)).url);
    await watched.page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await watched?.close();
    await world?.close();
  });

  it('names the workspace in the header and shows times in its time zone', async () => {
    const { page } = watched;
    await expect(page.locator('.brand').innerText()).resolves.toContain('Acme workspace');
    await expect(page.locator('header').innerText()).resolves.not.toContain('workspace-gateway');
    // Asia/Tokyo is 9 hours ahead of UTC, all year.
    await expect(page.locator('ul.cards time').first().innerText()).resolves.toMatch(/GMT\+9/);
  });

  it('asks before Reject, sends nothing until confirmed; the queue keeps its filters on the way back', async () => {
    const { page } = watched;
    await page.getByLabel('Status').selectOption({ label: 'All' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'submitted,under_review,accepted,rejected');
    await page.getByRole('link', { name: 'late display', exact: true }).click();
    await page.getByRole('heading', { name: 'Application from late display' }).waitFor();

    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') sent.push(request.url());
    });
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('status').filter({ hasText: 'Reject late display\'s application? This cannot be undone' }).waitFor();
    expect(sent).toEqual([]);
    // Another button instead of the confirmation: that one is asked about, and Reject is itself again.
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await page.getByRole('button', { name: 'Reject', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Confirm: accept' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm: reject' }).click();
    await page.getByRole('status').filter({ hasText: 'Rejected.' }).waitFor();
    expect(sent.filter((url) => url.endsWith('/reject'))).toHaveLength(1);
    expect(sent.filter((url) => url.endsWith('/accept'))).toEqual([]);

    await page.getByRole('link', { name: 'Back to the queue' }).click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('submitted,under_review,accepted,rejected');
    expect(await page.getByLabel('Status').inputValue()).toBe('submitted,under_review,accepted,rejected');
  });

  it('remembers the environment the member chose, and says what test and live mean', async () => {
    const { page } = watched;
    await page.getByLabel('Environment', { exact: true }).selectOption('test');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No submissions match these filters.').waitFor();
    await expect(page.getByText(/Live: what the game and the bot send with live keys/).isVisible()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Stats', exact: true }).click();
    await page.getByRole('heading', { name: 'Stats', level: 1 }).waitFor();
    expect(await page.getByLabel('Environment', { exact: true }).inputValue()).toBe('test');
    await page.getByRole('link', { name: 'Time off', exact: true }).click();
    await page.getByRole('heading', { name: 'Time off', level: 1 }).waitFor();
    expect(await page.getByLabel('Environment', { exact: true }).inputValue()).toBe('test');
    await page.getByLabel('Environment', { exact: true }).selectOption('live');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('article', { name: /^Bob / }).waitFor();
  });

  it('shows how long time off lasts, and asks before Deny', async () => {
    const { page } = watched;
    const card = page.getByRole('article', { name: /^Bob / });
    // The world's notice runs from a day ahead to six days ahead.
    await expect(card.innerText()).resolves.toMatch(/Duration\s+5 days/);
    await card.getByRole('button', { name: 'Deny' }).click();
    await card.getByRole('status').filter({ hasText: 'Deny Bob\'s time off? This cannot be undone' }).waitFor();
    await card.getByRole('button', { name: 'Confirm: deny' }).click();
    await page.getByRole('status').filter({ hasText: 'Denied.' }).waitFor();
  });

  it('on a 360 px phone: the decision is one tap from the top, and Stats shows every column without scrolling', async () => {
    const { page } = watched;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${world.base}/console/applications/${world.submissions.hostile}`);
    await page.getByRole('heading', { name: 'Application from hostile display' }).waitFor();
    const jump = page.getByRole('link', { name: 'Go to the decision' });
    const acceptInView = "[...document.querySelectorAll('button')].some((b) => b.textContent === 'Accept' && b.getBoundingClientRect().bottom <= window.innerHeight)";
    expect(await inPage<boolean>(page, `document.querySelector('.to-decision').getBoundingClientRect().bottom <= window.innerHeight`)).toBe(true);
    expect(await inPage<boolean>(page, acceptInView)).toBe(false);
    await jump.click();
    await expect.poll(() => inPage<boolean>(page, acceptInView)).toBe(true);

    await page.goto(`${world.base}/console/stats?environment=live`);
    await page.getByRole('row', { name: /Moderator application/ }).waitFor();
    expect(await page.getByRole('columnheader').count()).toBe(5);
    for (const header of await page.getByRole('columnheader').all()) expect(await header.isVisible()).toBe(true);
    const fits = await inPage<boolean>(page, "(() => { const w = document.querySelector('.table-wrap'); return w.scrollWidth <= w.clientWidth; })()");
    expect(fits).toBe(true);
    expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(watched.errors).toEqual([]);
  });
});
