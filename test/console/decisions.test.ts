/**
 * The decisions of the console in headless Chromium, on both stores: what accepting does when the reviewer leaves
 * the "Create staff profile" box as it is (the workspace's `createStaffProfileOnAccept` decides, and the page says
 * which way).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
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

describe.each(STORE_KINDS)('accepting in the console follows the workspace setting (%s)', (kind) => {
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
      await page.getByRole('heading', { name: 'Application from plain' }).waitFor();

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
