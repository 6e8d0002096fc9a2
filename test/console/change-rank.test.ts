/**
 * "Change rank" on a staff member's page, in headless Chromium on both stores, at 1280 and 360 px with axe-core
 * finding no violation: a member with `staff.rank` gives an assignable rank with a reason and follows the change's
 * sync to the Roblox group (a fake Open Cloud the gateway's ROBLOX_API_URL names, applied by the rank sync when the
 * test lets it run) from pending to applied, or to failed with Roblox's message; a refusal is shown as the API
 * words it; a member without `staff.rank`, a rank that is not assignable and a workspace without ranks offer no
 * button.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RANK_SYNC_SETTINGS, RankSync } from '../../src/features/ranks/sync/sync.ts';
import { systemTimer } from '../../src/webhooks/timer.ts';
import type { StaffDocument } from '../../src/provisioning/schema.ts';
import { newId } from '../../src/shared/ids.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { allAxeViolations, chromiumMissing, inPage, launchChromium } from '../helpers/browser.ts';
import { runCli } from '../helpers/cli.ts';
import {
  buildFixture,
  dashboardToken,
  READONLY_USER_ID,
  REVIEWER_USER_ID,
  SECOND_REVIEWER_USER_ID,
  seed,
  type Fixture,
  type WorkspaceFixture,
} from '../helpers/fixtures.ts';
import { STORE_KINDS, type StoreKind } from '../helpers/stores.ts';
import { FakeOpenCloud } from '../features/ranks/fake-open-cloud.ts';
import { SILENT_LOG } from '../webhooks/receiver.ts';
import { watchedPage, type WatchedPage } from './world.ts';

const GROUP_ID = '4200001';
const API_KEY = 'ocak_SECRET_console_rank_0123456789';
const REFUSED = 'The API key is not allowed to change roles in this group.';

/** Whether the page scrolls sideways (it must not, at 360 px). */
const scrollsSideways = (page: Page) => inPage<boolean>(page, 'document.documentElement.scrollWidth > window.innerWidth');

interface RankWorld {
  readonly ctx: TestContext;
  readonly base: string;
  readonly fixture: Fixture & { readonly second: WorkspaceFixture };
  readonly fake: FakeOpenCloud;
  /** The gateway's rank sync, run by the test (`runOnce`) so that "pending" is on the page before it moves. */
  readonly sync: RankSync;
  /** Staff members beside the fixture's alice (Moderator) and bob (Trial Moderator), by name. */
  readonly staff: Readonly<Record<'dana' | 'erin' | 'olga' | 'hal', StaffDocument>>;
}

async function rankWorld(kind: StoreKind): Promise<RankWorld> {
  const fake = await FakeOpenCloud.start();
  const ctx = await createTestContext(kind, { now: Date.now(), env: { ROBLOX_API_URL: fake.baseUrl } });
  const base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const fixture = buildFixture({ secondWorkspace: true });
  const member = (n: number, displayName: string, rank: string): StaffDocument => ({
    id: newId(),
    displayName,
    gameUserId: String(1010 + n),
    gameUsername: displayName.toLowerCase(),
    rank,
    status: 'active',
  });
  const staff = {
    dana: member(1, 'Dana', 'Moderator'),
    erin: member(2, 'Erin', 'Moderator'),
    olga: member(3, 'Olga', 'Owner'),
    hal: member(4, 'Hal', 'Helper'),
  };
  fixture.workspace.staff = [...(fixture.workspace.staff ?? []), ...Object.values(staff)];
  fixture.workspace.roblox = { groupId: GROUP_ID, apiKey: API_KEY };
  // Listed out of order: the page offers them by `order`.
  fixture.workspace.ranks = [
    { name: 'Owner', roleId: '255', order: 255, assignable: false },
    { name: 'Senior Moderator', roleId: '103', order: 30 },
    { name: 'Trial Moderator', roleId: '101', order: 10 },
    { name: 'Moderator', roleId: '102', order: 20 },
    // Ranks the gateway keeps without a role in the group: a change between them is not synced.
    { name: 'Helper', order: 15 },
    { name: 'Intern', order: 5 },
  ];
  await seed(ctx, fixture);
  const sync = new RankSync({
    store: ctx.store,
    clock: ctx.clock,
    timer: systemTimer,
    log: SILENT_LOG,
    settings: { ...DEFAULT_RANK_SYNC_SETTINGS, baseUrl: ctx.config.robloxApiUrl },
  });
  return { ctx, base, fixture, fake, sync, staff };
}

async function signIn(world: RankWorld, page: Page, userId: string): Promise<void> {
  const result = await runCli(['console-link', '--user', userId], { DATABASE_URL: world.ctx.database.url, PUBLIC_BASE_URL: world.base });
  expect(result.code, result.stderr).toBe(0);
  await page.goto((JSON.parse(result.stdout) as { url: string }).url);
}

/** Signs in and opens the staff member's page. */
async function openStaffPage(world: RankWorld, page: Page, userId: string, staffId: string, name: string): Promise<void> {
  await signIn(world, page, userId);
  // Signed in: the header offers "Sign out" on the member's first page.
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.goto(`${world.base}/console/staff/${staffId}`);
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

/** The value of the page's "Rank" fact. */
const rankShown = (page: Page) => page.locator('dl.facts > div').filter({ has: page.getByText('Rank', { exact: true }) }).locator('dd').innerText();
const history = (page: Page) => page.getByRole('list', { name: 'Rank history' }).getByRole('listitem');
const syncStatus = (page: Page) => page.locator('.rank-control [role="status"]');

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(chromiumMissing).each(STORE_KINDS)('"Change rank" on a staff member\'s page (%s)', (kind) => {
  let world: RankWorld;
  const pages: WatchedPage[] = [];
  /** The Idempotency-Key of every rank change the pages sent. */
  const keys: string[] = [];
  const open = async (width: number) => {
    const watched = await watchedPage(browser, width);
    watched.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/rank')) keys.push(request.headers()['idempotency-key'] ?? '');
    });
    pages.push(watched);
    return watched;
  };

  beforeAll(async () => {
    world = await rankWorld(kind);
  });
  afterAll(async () => {
    for (const watched of pages) await watched.close();
    await world?.ctx.close();
    await world?.fake.close();
    for (const watched of pages) {
      expect(watched.requests.filter((url) => !url.startsWith(`${world.base}/`))).toEqual([]);
      expect(watched.errors).toEqual([]);
      expect(watched.dialogs).toEqual([]);
    }
    expect(keys.every((key) => /^[0-9a-f-]{36}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  // The journey at 360 px is the same page over the same answers: it runs on one store, the 1280 px one on both.
  const journeys = [
    [1280, 'alice', 'Alice', 'Moderator', ['Intern', 'Trial Moderator', 'Helper', 'Senior Moderator'], 'Senior Moderator', '103', '102'],
    [360, 'bob', 'Bob', 'Trial Moderator', ['Intern', 'Helper', 'Moderator', 'Senior Moderator'], 'Moderator', '102', '101'],
  ] as const;
  it.each(kind === 'sqlite' ? journeys : journeys.slice(0, 1))('at %i px: a member with staff.rank gives %s a rank and sees its sync go from pending to applied', async (width, who, name, from, offered, to, toRole, fromRole) => {
    const { page } = await open(width);
    const staffId = world.fixture.ids.staff[who];
    const gameUserId = who === 'alice' ? '1001' : '1002';
    world.fake.answer = () => ({ status: 200 });
    await openStaffPage(world, page, REVIEWER_USER_ID, staffId, name);
    await expect(rankShown(page)).resolves.toBe(from);

    // By keyboard: Enter opens the form on the rank to choose, Escape closes it and gives the focus back.
    await page.getByRole('button', { name: 'Change rank' }).focus();
    await page.keyboard.press('Enter');
    expect(await inPage<string>(page, 'document.activeElement?.getAttribute("name")')).toBe('rank');
    await page.keyboard.press('Escape');
    expect(await inPage<string>(page, 'document.activeElement?.textContent')).toBe('Change rank');
    await page.keyboard.press('Enter');

    // The assignable ranks other than the current one, by order; the form says what saving does.
    const choice = page.getByLabel('New rank');
    expect(await choice.locator('option').allInnerTexts()).toEqual([...offered]);
    const form = page.getByRole('group', { name: `Change ${name}'s rank` });
    await expect(form.innerText()).resolves.toContain(`${name} holds ${from}. The rank you save replaces it at once`);
    await choice.selectOption(to);
    await page.getByLabel('Reason (optional)').fill('  Six months of steady <b>work</b>  ');
    expect(await allAxeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByRole('button', { name: 'Save rank change' }).click();

    await syncStatus(page).getByText(`Rank changed to ${to}. Roblox group: pending`, { exact: false }).waitFor();
    await expect(rankShown(page)).resolves.toBe(to);
    await expect(history(page).first().innerText()).resolves.toMatch(
      new RegExp(` · ${from} to ${to} · by ${REVIEWER_USER_ID} · Six months of steady <b>work</b> Roblox: Pending$`),
    );
    expect(world.fake.calls).toEqual([]);
    // The form closed and the focus is back on "Change rank", which now offers the previous rank.
    expect(await inPage<string>(page, 'document.activeElement?.textContent')).toBe('Change rank');
    expect(await allAxeViolations(page)).toEqual([]);

    world.fake.calls.length = 0;
    expect(await world.sync.runOnce()).toBe(1);
    expect(world.fake.summary()).toEqual([`assign ${gameUserId} ${toRole}`, `unassign ${gameUserId} ${fromRole}`]);
    await syncStatus(page).getByText(`Rank changed to ${to}. Roblox group: applied`, { exact: false }).waitFor();
    await expect(history(page).first().innerText()).resolves.toMatch(/Roblox: Applied$/);
    expect(await allAxeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    world.fake.calls.length = 0;

    // The page's change is the API's: reason trimmed, by the signed-in member.
    const api = await dashboardToken(READONLY_USER_ID, { expiresAt: world.ctx.clock.now() + 3_600_000 });
    const res = await fetch(`${world.base}/v1/staff/${staffId}/rank-changes`, { headers: { authorization: `Bearer ${api}` } });
    const [change] = ((await res.json()) as { data: { changes: { toRank: string; reason: string; changedBy: string }[] } }).data.changes;
    expect(change).toMatchObject({ toRank: to, reason: 'Six months of steady <b>work</b>', changedBy: REVIEWER_USER_ID });
  }, 60_000);

  it('a change Roblox refuses shows failed with Roblox\'s code and message, on the page and in the history', async () => {
    const { page } = await open(1280);
    world.fake.answer = () => ({ status: 403, code: 'PERMISSION_DENIED', message: REFUSED });
    await openStaffPage(world, page, REVIEWER_USER_ID, world.staff.dana.id, 'Dana');
    await page.getByRole('button', { name: 'Change rank' }).click();
    await page.getByLabel('New rank').selectOption('Trial Moderator');
    await page.getByRole('button', { name: 'Save rank change' }).click();
    await syncStatus(page).getByText('Roblox group: pending', { exact: false }).waitFor();
    await world.sync.runOnce();
    const failed = syncStatus(page).getByText(`Roblox group: failed. Roblox answered PERMISSION_DENIED: ${REFUSED} The rank here stays changed`, { exact: false });
    await failed.waitFor();
    await expect(history(page).first().innerText()).resolves.toContain(`Roblox: Failed PERMISSION_DENIED: ${REFUSED}`);
    await expect(rankShown(page)).resolves.toBe('Trial Moderator');
    expect(await allAxeViolations(page)).toEqual([]);
    world.fake.calls.length = 0;
  }, 60_000);

  it('a change between ranks without a role says that nothing was sent to Roblox, and is not followed', async () => {
    const watched = await open(360);
    const { page } = watched;
    await openStaffPage(world, page, REVIEWER_USER_ID, world.staff.hal.id, 'Hal');
    await page.getByRole('button', { name: 'Change rank' }).click();
    await page.getByLabel('New rank').selectOption('Intern');
    await page.getByRole('button', { name: 'Save rank change' }).click();
    await syncStatus(page).getByText('Rank changed to Intern. Roblox group: not synced', { exact: false }).waitFor();
    await expect(history(page).first().innerText()).resolves.toMatch(/Helper to Intern · by user-reviewer Roblox: Not synced$/);
    // A settled change is not read again.
    await page.waitForTimeout(2_500);
    expect(watched.requests.filter((url) => url.includes('/rank-changes'))).toEqual([]);
    expect(await allAxeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
  }, 60_000);

  it('a refusal is shown as the API words it, and the next attempt is a new one', async () => {
    const { page } = await open(360);
    await openStaffPage(world, page, REVIEWER_USER_ID, world.staff.erin.id, 'Erin');
    await page.getByRole('button', { name: 'Change rank' }).click();
    await page.getByLabel('New rank').selectOption('Senior Moderator');
    // Another manager gives Erin that rank while the form is open.
    const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: world.ctx.clock.now() + 3_600_000 });
    const other = await fetch(`${world.base}/v1/staff/${world.staff.erin.id}/rank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': newId() },
      body: JSON.stringify({ rank: 'Senior Moderator' }),
    });
    expect(other.status).toBe(200);
    await page.getByRole('button', { name: 'Save rank change' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.innerText()).resolves.toMatch(/^The staff member already holds the rank "Senior Moderator"\. \(request req_/);
    expect(await allAxeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    // The form stays open; another rank goes through.
    await page.getByLabel('New rank').selectOption('Trial Moderator');
    await page.getByRole('button', { name: 'Save rank change' }).click();
    await syncStatus(page).getByText('Rank changed to Trial Moderator.', { exact: false }).waitFor();
    await expect(rankShown(page)).resolves.toBe('Trial Moderator');
    expect(await page.getByRole('alert').count()).toBe(0);
  }, 60_000);

  it('no button without staff.rank, for a rank that is not assignable, or in a workspace without ranks', async () => {
    const { page } = await open(1280);
    await openStaffPage(world, page, READONLY_USER_ID, world.fixture.ids.staff.alice, 'Alice');
    await history(page).first().waitFor();
    // The history shows each change's sync to any member.
    await expect(history(page).first().innerText()).resolves.toMatch(/Roblox: Applied$/);
    expect(await page.getByRole('button', { name: 'Change rank' }).count()).toBe(0);
    expect(await page.locator('.rank-control').count()).toBe(0);
    expect(await allAxeViolations(page)).toEqual([]);

    const owner = await open(1280);
    await openStaffPage(world, owner.page, REVIEWER_USER_ID, world.staff.olga.id, 'Olga');
    await owner.page.getByText('The rank Owner is not assignable: the console neither gives nor takes it.').waitFor();
    expect(await owner.page.getByRole('button', { name: 'Change rank' }).count()).toBe(0);

    const second = await open(360);
    await openStaffPage(world, second.page, SECOND_REVIEWER_USER_ID, world.fixture.second.ids.staff.alice, 'Alice');
    await second.page.getByText('This workspace has no ranks to choose from', { exact: false }).waitFor();
    expect(await second.page.getByRole('button', { name: 'Change rank' }).count()).toBe(0);
    expect(await allAxeViolations(second.page)).toEqual([]);
  }, 60_000);
});
