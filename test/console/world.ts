/**
 * A gateway listening on a port over a fresh database of either store, seeded with a workspace whose members use
 * the console, a form, submissions sent through the intake API, and pending notices; sign-in links made by the
 * `console-link` command, as an operator would; and a browser page that records every request it makes and every
 * dialog it opens.
 */
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newId } from '../../src/shared/ids.ts';
import { PERMISSIONS } from '../../src/shared/actor.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { checkedFetch, type FetchedResponse } from '../helpers/contract.ts';
import { runCli } from '../helpers/cli.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, seed, type Fixture, type WorkspaceFixture } from '../helpers/fixtures.ts';
import type { StoreKind } from '../helpers/stores.ts';
import { formDoc, GOOD_ANSWERS } from '../features/applications/intake-helpers.ts';

/** Holds `applications.review` only: may review, may not decide, sees no time off. */
export const REVIEW_ONLY_USER_ID = 'user-review-only';
export const SCRIPT_ANSWER = '<script>window.__consoleInjected = "script"</script>';
export const IMAGE_ANSWER = '<img src=x onerror="window.__consoleInjected = \'img\'; alert(1)">';

export interface ConsoleWorld {
  readonly ctx: TestContext;
  readonly base: string;
  readonly fixture: Fixture & { readonly second: WorkspaceFixture };
  readonly formId: string;
  /** Submissions by applicant game username (`hostile`, `plain`, `late`). */
  readonly submissions: Readonly<Record<'hostile' | 'plain' | 'late', string>>;
  readonly noticeId: string;
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;

/** Settings of the first workspace that a test varies (the fixture's defaults otherwise). */
export interface WorldOptions {
  readonly createStaffProfileOnAccept?: boolean;
  readonly timezone?: string;
}

/** The world; the gateway's clock starts at the real time, as the `console-link` command's does. */
export async function consoleWorld(kind: StoreKind, options: WorldOptions = {}): Promise<ConsoleWorld> {
  const now = Date.now();
  const ctx = await createTestContext(kind, { now });
  const base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const fixture = buildFixture({ secondWorkspace: true, ...options });
  const form = formDoc();
  fixture.workspace.forms = [form];
  fixture.workspace.members = [
    ...(fixture.workspace.members ?? []),
    { userId: REVIEW_ONLY_USER_ID, permissions: ['applications.review'] },
  ];
  // The reviewer works in both workspaces: the console offers the choice.
  fixture.second.workspace.members = [{ userId: REVIEWER_USER_ID, permissions: [...PERMISSIONS] }];
  const noticeId = newId();
  fixture.workspace.inactivityNotices = [
    {
      id: noticeId,
      staffId: fixture.ids.staff.bob,
      startsAt: new Date(now + DAY_MS).toISOString(),
      endsAt: new Date(now + 6 * DAY_MS).toISOString(),
      reason: 'Exams <b>week</b>',
      status: 'pending',
    },
  ];
  await seed(ctx, fixture);

  const submit = async (gameUsername: string, gameUserId: string, why: string, nick: string) => {
    const res = await checkedFetch(base, `/v1/applications/forms/${form.id}/submissions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fixture.keys.live.secret}`,
        'content-type': 'application/json',
        'idempotency-key': newId(),
      },
      body: JSON.stringify({ applicant: { gameUserId, gameUsername, displayName: `${gameUsername} display` }, answers: { ...GOOD_ANSWERS, why, nick } }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: { submission: { id: string } } }).data.submission.id;
  };
  const submissions = {
    hostile: await submit('hostile', '880001', SCRIPT_ANSWER, IMAGE_ANSWER.slice(0, 200)),
    plain: await submit('plain', '880002', 'I like helping.', 'plainnick'),
    late: await submit('late', '880003', 'Late but keen.', 'latenick'),
  };
  return {
    ctx,
    base,
    fixture,
    formId: form.id,
    submissions,
    noticeId,
    close: () => ctx.close(),
  };
}

/** A sign-in link for `userId`, made by the operators' command against the world's database. */
export async function consoleLink(world: ConsoleWorld, userId: string): Promise<{ url: string; expiresAt: string }> {
  const result = await runCli(['console-link', '--user', userId], {
    DATABASE_URL: world.ctx.database.url,
    PUBLIC_BASE_URL: world.base,
  });
  expect(result.code, result.stderr).toBe(0);
  const link = JSON.parse(result.stdout) as { url: string; expiresAt: string };
  expect(link.url.startsWith(`${world.base}/console/sign-in#code=`)).toBe(true);
  return link;
}

/** A dashboard token for calls the test makes beside the page (what another reviewer does meanwhile). */
export async function apiAs(world: ConsoleWorld, userId: string) {
  const token = await dashboardToken(userId, { expiresAt: world.ctx.clock.now() + 3_600_000 });
  return (path: string, init: { method?: string; body?: unknown; workspaceId?: string } = {}): Promise<FetchedResponse> =>
    checkedFetch(world.base, path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        'x-service-workspace-id': init.workspaceId ?? world.fixture.ids.workspaceId,
        ...(init.method && init.method !== 'GET' ? { 'idempotency-key': newId(), 'content-type': 'application/json' } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
}

export interface WatchedPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every URL the page requested. */
  readonly requests: string[];
  /** Every dialog (alert, confirm, prompt) the page opened. */
  readonly dialogs: string[];
  /** Uncaught errors of the page's scripts, and Content-Security-Policy violations. */
  readonly errors: string[];
  close(): Promise<void>;
}

/** A fresh browser context (its own sessionStorage) and page at the given width. */
export async function watchedPage(browser: Browser, width = 1280): Promise<WatchedPage> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The browser logs every 4xx answer as an error; the pages show those themselves.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  // A script the page's policy refuses shows up among the errors.
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));",
  });
  return { context, page, requests, dialogs, errors, close: () => context.close() };
}
