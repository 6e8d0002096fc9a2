/**
 * The console names people and applications, not ids, in headless Chromium on both stores: the queue titles each
 * card with the applicant's display name (their game username beside it); a submission's history names the
 * application that sent it; an accepted submission whose acceptance made a staff profile links to that staff
 * member's page. axe finds nothing serious on these pages.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, seriousAxeViolations } from '../helpers/browser.ts';
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

async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await seriousAxeViolations(page), where).toEqual([]);
}

describe.skipIf(chromiumMissing).each(STORE_KINDS)('names in the console, not ids (%s)', (kind) => {
  let world: ConsoleWorld;
  let watched: WatchedPage;
  let page: Page;
  let applicationName: string;

  beforeAll(async () => {
    world = await consoleWorld(kind);
    applicationName = world.fixture.workspace.applications?.[0]?.name ?? '';
    expect(applicationName).not.toBe('');
    watched = await watchedPage(browser);
    page = watched.page;
    await page.goto((await consoleLink(world, REVIEWER_USER_ID)).url);
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await watched?.close();
    await world?.close();
  });

  it("titles each queue card with the applicant's display name, their game username beside it", async () => {
    const cards = page.getByRole('list', { name: 'Submissions' }).getByRole('listitem');
    await cards.nth(2).waitFor();
    const titles = await page.locator('.card-title').allInnerTexts();
    expect([...titles].sort()).toEqual(['hostile display', 'late display', 'plain display']);
    const plain = cards.filter({ has: page.getByRole('link', { name: 'plain display', exact: true }) });
    await expect(plain.innerText()).resolves.toMatch(/Game username\s+plain/);
    await expectAccessible(page, 'queue');
    expect(watched.errors).toEqual([]);
  });

  it('names the application that sent a submission in its history, not its id', async () => {
    await page.getByRole('link', { name: 'plain display', exact: true }).click();
    await page.getByRole('heading', { name: 'Application from plain display' }).waitFor();
    const history = await page.locator('ol.history').innerText();
    expect(history).toContain(`Submitted by the application ${applicationName}`);
    expect(history).not.toContain(world.fixture.ids.applicationId);
    await expectAccessible(page, 'submission');
  });

  it("links an acceptance's new staff profile to that staff member's page", async () => {
    expect(await page.getByRole('link', { name: /staff page/ }).count()).toBe(0);
    await page.getByLabel('Create staff profile').check();
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('button', { name: 'Confirm: accept' }).click();
    await page.getByRole('status').filter({ hasText: 'Accepted. A staff profile was created' }).waitFor();

    const api = await apiAs(world, REVIEWER_USER_ID);
    const detail = (await api(`/v1/applications/submissions/${world.submissions.plain}`)).json() as {
      data: { submission: { staffProfileId: string | null } };
    };
    const staffId = detail.data.submission.staffProfileId;
    expect(staffId).not.toBeNull();
    const link = page.getByRole('link', { name: "plain display's staff page" });
    expect(await link.getAttribute('href')).toBe(`/console/staff/${staffId}`);
    expect(await page.locator('main').innerText()).not.toContain(staffId ?? '');
    await expectAccessible(page, 'accepted submission');

    await link.click();
    await page.waitForURL(`${world.base}/console/staff/${staffId}`);
    await page.getByRole('heading', { name: 'plain display', level: 1 }).waitFor();
    await expectAccessible(page, 'staff member');
    expect(watched.errors).toEqual([]);
  });
});
