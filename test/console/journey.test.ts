/**
 * The console in headless Chromium, on both stores: a reviewer signs in with a link made by `console-link`, works
 * a submission from the queue to accepted with a staff profile, meets another reviewer's decision as an error
 * message, approves a notice, reads the stats and signs out; by keyboard where it matters, at 360 px where it
 * matters. Hostile answers stay text, every request stays on the gateway's origin, and axe finds nothing serious
 * on any page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, inPage, launchChromium, seriousAxeViolations } from '../helpers/browser.ts';
import { REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import {
  apiAs,
  consoleLink,
  consoleWorld,
  IMAGE_ANSWER,
  SCRIPT_ANSWER,
  watchedPage,
  type ConsoleWorld,
  type WatchedPage,
} from './world.ts';

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

describe.skipIf(chromiumMissing).each(STORE_KINDS)('the console in a browser (%s)', (kind) => {
  let world: ConsoleWorld;
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    world = await consoleWorld(kind);
    watched = await watchedPage(browser);
    page = watched.page;
  });
  afterAll(async () => {
    await watched?.close();
    await world?.close();
  });

  it('signs in with a link from console-link, drops the code from the address and opens the queue', async () => {
    const link = await consoleLink(world, REVIEWER_USER_ID);
    await page.goto(link.url);
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    expect(page.url()).toBe(`${world.base}/console/applications`);
    expect(await inPage<string>(page, 'window.location.hash')).toBe('');
    const stored = await page.evaluate(() => Object.keys(sessionStorage));
    expect(stored).toContain('workspace-gateway.console.token');
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    for (const name of ['Applications', 'Time off', 'Stats']) await expect(page.getByRole('link', { name, exact: true }).isVisible()).resolves.toBe(true);
    const rows = page.getByRole('list', { name: 'Submissions' }).getByRole('listitem');
    expect(await rows.count()).toBe(3);
    await expect(rows.first().innerText()).resolves.toContain('Moderator application');
    await expectAccessible(page, 'queue');
  });

  it('filters the queue by status, form and environment', async () => {
    await page.getByLabel('Environment').selectOption('test');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No submissions match these filters.').waitFor();
    expect(new URL(page.url()).searchParams.get('environment')).toBe('test');
    await page.getByLabel('Environment').selectOption('live');
    await page.getByLabel('Form').selectOption({ label: 'Moderator application' });
    await page.getByLabel('Status').selectOption({ label: 'Submitted' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL((url) => url.searchParams.get('formId') === world.formId);
    const rows = page.getByRole('list', { name: 'Submissions' }).getByRole('listitem');
    await rows.nth(2).waitFor();
    expect(await rows.count()).toBe(3);
    expect(await page.getByLabel('Form').inputValue()).toBe(world.formId);
  });

  it('shows hostile answers as text and runs nothing', async () => {
    await page.getByRole('link', { name: 'hostile display', exact: true }).click();
    await page.getByRole('heading', { name: 'Application from hostile display' }).waitFor();
    const answers = page.locator('dl.answers dd');
    await expect(answers.first().textContent()).resolves.toBe(SCRIPT_ANSWER);
    await expect(answers.last().textContent()).resolves.toBe(IMAGE_ANSWER);
    expect(await page.locator('main script, main img').count()).toBe(0);
    expect(await inPage<string | undefined>(page, 'window.__consoleInjected')).toBeUndefined();
    expect(watched.dialogs).toEqual([]);
    await expectAccessible(page, 'submission');
  });

  it('works a submission from the queue to accepted with a staff profile, by keyboard', async () => {
    await page.getByRole('link', { name: 'Back to the queue' }).click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    // From the heading the navigation moves to, Tab reaches the submission's link and Enter opens it.
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await inPage<string | null>(page, 'document.activeElement?.textContent')) === 'plain display';
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Application from plain display' }).waitFor();
    expect(await inPage<string>(page, 'document.activeElement?.tagName')).toBe('H1');

    await page.getByLabel('Score (0 to 100, empty for none)').fill('82');
    await page.getByLabel('Reviewer notes').fill('Calm <and> thorough.');
    await page.getByRole('button', { name: 'Save review' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Review saved.' }).waitFor();

    await page.getByLabel('Review note (optional)').fill('Looks promising');
    await page.getByRole('button', { name: 'Mark under review' }).click();
    await page.getByRole('status').filter({ hasText: 'Marked under review.' }).waitFor();
    await expect(page.locator('.badge').first().textContent()).resolves.toBe('Under review');
    expect(await page.getByRole('button', { name: 'Mark under review' }).count()).toBe(0);

    await page.getByLabel('Create staff profile').focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Review note (optional)').fill('Welcome aboard');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('button', { name: 'Confirm: accept' }).click();
    await page.getByRole('status').filter({ hasText: /^Accepted\. A staff profile was created/ }).waitFor();
    for (const name of ['Accept', 'Reject', 'Save review', 'Mark under review']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    const history = await page.locator('ol.history').innerText();
    expect(history).toContain('Welcome aboard');
    expect(history).toContain('Looks promising');

    const api = await apiAs(world, REVIEWER_USER_ID);
    const detail = (await api(`/v1/applications/submissions/${world.submissions.plain}`)).json() as {
      data: { submission: { status: string; score: number; reviewerNotes: string; staffProfileId: string | null; history: { type: string }[] } };
    };
    expect(detail.data.submission).toMatchObject({ status: 'accepted', score: 82, reviewerNotes: 'Calm <and> thorough.' });
    expect(detail.data.submission.staffProfileId).not.toBeNull();
    expect(detail.data.submission.history.map((entry) => entry.type).sort()).toEqual(
      ['accepted', 'marked_under_review', 'review_updated', 'submitted'].sort(),
    );
  });

  it('shows the message of an API error: another reviewer decided first', async () => {
    await page.goto(`${world.base}/console/applications/${world.submissions.late}`);
    await page.getByRole('heading', { name: 'Application from late display' }).waitFor();
    const api = await apiAs(world, REVIEWER_USER_ID);
    expect((await api(`/v1/applications/submissions/${world.submissions.late}/reject`, { method: 'POST', body: {} })).statusCode).toBe(200);
    const refused = await api(`/v1/applications/submissions/${world.submissions.late}/accept`, { method: 'POST', body: {} });
    const message = (refused.json() as { error: { message: string } }).error.message;

    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('button', { name: 'Confirm: accept' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain(message);
  });

  it('approves a pending notice with a note', async () => {
    await page.getByRole('link', { name: 'Time off', exact: true }).click();
    await page.getByRole('heading', { name: 'Time off', level: 1 }).waitFor();
    const card = page.getByRole('article', { name: /^Bob / });
    await expect(card.innerText()).resolves.toContain('Exams <b>week</b>');
    await expectAccessible(page, 'time off');
    await card.getByLabel('Note (optional)').fill('Good luck');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByRole('button', { name: 'Confirm: approve' }).click();
    await page.getByRole('status').filter({ hasText: 'Approved.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    const api = await apiAs(world, REVIEWER_USER_ID);
    const list = (await api('/v1/staff/inactivity-notices?status=approved')).json() as {
      data: { notices: { id: string; decisionNote: string | null; decidedBy: string | null }[] };
    };
    expect(list.data.notices).toEqual([expect.objectContaining({ id: world.noticeId, decisionNote: 'Good luck', decidedBy: REVIEWER_USER_ID })]);
  });

  it('counts submissions by form on the stats page', async () => {
    await page.getByRole('link', { name: 'Stats', exact: true }).click();
    const row = page.getByRole('row', { name: /Moderator application/ });
    await row.waitFor();
    expect((await row.getByRole('cell').allTextContents()).map(Number)).toEqual([1, 0, 1, 1]);
    await expectAccessible(page, 'stats');
  });

  it('switches workspace through the selector, which the next calls send', async () => {
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Globex workspace' });
    expect(await page.getByRole('link', { name: 'Stats', exact: true }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('button', { name: 'Switch' }).click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    await page.getByText('No submissions match these filters.').waitFor();
    const asked = page.waitForRequest((request) => request.url().includes('/v1/applications/stats'));
    await page.getByRole('link', { name: 'Stats', exact: true }).click();
    expect((await asked).headers()['x-service-workspace-id']).toBe(world.fixture.second.ids.workspaceId);
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Acme workspace' });
    await page.getByRole('button', { name: 'Switch' }).click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'hostile display', exact: true }).waitFor();
  });

  it('fits a 360 px wide screen', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/console/applications', `/console/applications/${world.submissions.hostile}`, '/console/time-off', '/console/stats']) {
      await page.goto(`${world.base}${path}`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await inPage<number>(page, 'document.documentElement.scrollWidth'), path).toBeLessThanOrEqual(360);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('signs out, forgetting the session, and made no request beyond the gateway', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('You are signed out.').waitFor();
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
    await page.goto(`${world.base}/console/applications`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(page.url()).toBe(`${world.base}/console/sign-in`);

    expect(watched.requests.length).toBeGreaterThan(20);
    expect(watched.requests.filter((url) => !url.startsWith(`${world.base}/`))).toEqual([]);
    expect(watched.dialogs).toEqual([]);
    expect(watched.errors).toEqual([]);
  });
});
