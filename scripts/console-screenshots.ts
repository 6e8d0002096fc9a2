// Screenshots of the console's main pages at 1280 and 360 px for docs/CONSOLE.md, taken from a real gateway:
// provisions a sample workspace in a temporary SQLite database, serves it, sends applications through the intake
// API, signs in with a link from `console-link`, and photographs each page in headless Chromium. Rank changes go to a
// fake of Roblox Open Cloud on this machine (test/features/ranks/fake-open-cloud.ts), never to Roblox.
//
//   node scripts/console-screenshots.ts [output directory, default docs/console]
//
// Run by hand after a visible change to the console (not in CI). Needs /usr/bin/chromium and playwright-core.
import { spawn, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { FakeOpenCloud } from '../test/features/ranks/fake-open-cloud.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/workspace-gateway.js');
const OUT = resolve(process.argv[2] ?? join(ROOT, 'docs/console'));
const DAY = 86_400_000;

const dir = mkdtempSync(join(tmpdir(), 'console-screenshots-'));
const openCloud = await FakeOpenCloud.start();
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}`, LOG_LEVEL: 'warn', ROBLOX_API_URL: openCloud.baseUrl };
const ids = { workspace: randomUUID(), form: randomUUID(), app: randomUUID(), key: randomUUID() };
const staff = ['Ava', 'Noah', 'Mia', 'Liam', 'Zoe'].map((name, i) => ({
  id: randomUUID(),
  displayName: name,
  gameUserId: String(41_000 + i),
  gameUsername: name.toLowerCase(),
  chatUserId: String(61_000 + i),
  status: 'active',
  rank: ['Senior Moderator', 'Moderator', 'Moderator', 'Trial Moderator', 'Helper'][i],
  weeklyRequiredMinutes: [240, 180, 180, 120, 60][i],
}));
const now = Date.now();
// Eight weeks of shifts for the staff pages: each staff member works some evenings, more in some weeks than others.
const shifts = staff.flatMap((member, s) =>
  Array.from({ length: 56 }, (_, d) => d).flatMap((d) => {
    if ((d * (s + 3) + s) % 4 === 0 || d === 0) return [];
    const start = now - d * DAY - (2 + s) * 3_600_000;
    const minutes = 30 + ((d * 37 + s * 11) % 90);
    return [{
      id: randomUUID(), staffId: member.id, applicationId: ids.app, environment: 'live',
      startedAt: new Date(start).toISOString(), endedAt: new Date(start + minutes * 60_000).toISOString(),
      endReason: d % 5 === 0 ? 'server_shutdown' : 'player_left', universeId: '1', placeId: '7', serverId: 'eu-1',
    }];
  }),
);
const document = {
  workspaces: [
    {
      id: ids.workspace,
      name: 'Northwind Roleplay',
      slug: 'northwind',
      timezone: 'Europe/Berlin',
      members: [{ userId: 'anna', permissions: ['applications.review', 'applications.decide', 'staff.create', 'notices.decide', 'staff.rank'] }],
      roblox: { groupId: '4200001', apiKey: 'screenshots-open-cloud-key' },
      ranks: [
        { name: 'Helper', roleId: '100', order: 5 },
        { name: 'Trial Moderator', roleId: '101', order: 10 },
        { name: 'Moderator', roleId: '102', order: 20 },
        { name: 'Senior Moderator', roleId: '103', order: 30 },
        { name: 'Head Moderator', roleId: '104', order: 40 },
        { name: 'Owner', roleId: '255', order: 255, assignable: false },
      ],
      staff,
      shifts,
      inactivityNotices: [
        { id: randomUUID(), staffId: staff[2]?.id, startsAt: new Date(now - 24 * DAY).toISOString(), endsAt: new Date(now - 17 * DAY).toISOString(), reason: 'Holiday.', status: 'approved' },
        { id: randomUUID(), staffId: staff[0]?.id, startsAt: new Date(now + 2 * DAY).toISOString(), endsAt: new Date(now + 9 * DAY).toISOString(), reason: 'Final exams, back on the 20th.', status: 'pending' },
        { id: randomUUID(), staffId: staff[1]?.id, startsAt: new Date(now + 5 * DAY).toISOString(), endsAt: new Date(now + 7 * DAY).toISOString(), reason: 'Family trip without internet.', status: 'pending' },
      ],
      forms: [
        {
          id: ids.form,
          name: 'Moderator application',
          slug: 'moderator',
          status: 'open',
          questions: [
            { id: 'why', label: 'Why do you want to join the team?', type: 'long_text', required: true },
            { id: 'age', label: 'How old are you?', type: 'number', required: true, min: 13, max: 99 },
            { id: 'tz', label: 'Time zone', type: 'choice', options: ['Europe', 'Americas', 'Asia'] },
            { id: 'rules', label: 'Have you read the rules?', type: 'boolean', required: true },
          ],
        },
      ],
      applications: [
        {
          id: ids.app,
          name: 'Application center',
          approved: true,
          allowedUniverseIds: ['1'],
          features: { applications: true, activity: true },
          keys: [{ id: ids.key, environment: 'live', scopes: ['applications:write', 'activity:write'] }],
        },
      ],
    },
  ],
};

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const cli = (...args: string[]) => execFileSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });

const documentPath = join(dir, 'document.json');
writeFileSync(documentPath, JSON.stringify(document));
// A fresh database: provision makes it only when asked to.
const provisioned = JSON.parse(cli('provision', documentPath, '--create')) as { keys: { secret: string }[] };
const secret = provisioned.keys[0]?.secret ?? '';
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], { env: { ...env, PUBLIC_BASE_URL: base }, stdio: 'inherit' });

try {
  for (let attempt = 0; ; attempt++) {
    const ready = await fetch(`${base}/health`).then((r) => r.ok, () => false);
    if (ready) break;
    if (attempt > 100) throw new Error('the gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const applicants = [
    ['sky_walker', 'I have moderated two Discord servers and enjoy helping new players find their way.', 19, 'Europe'],
    ['rosa_m', 'Our community helped me a lot when I started; I would like to give that back.', 22, 'Americas'],
    ['kenji', 'I am online most evenings and know the rules by heart.', 17, 'Asia'],
  ] as const;
  for (const [i, [name, why, age, tz]] of applicants.entries()) {
    const res = await fetch(`${base}/v1/applications/forms/${ids.form}/submissions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ applicant: { gameUserId: String(90_000 + i), gameUsername: name }, answers: { why, age, tz, rules: true } }),
    });
    if (!res.ok) throw new Error(`intake: ${res.status} ${await res.text()}`);
  }
  // Two staff members on duty now.
  for (const member of staff.slice(0, 2)) {
    const res = await fetch(`${base}/v1/activity/shifts/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ gameUserId: member.gameUserId, universeId: '1', placeId: '7', serverId: 'eu-1', startedAt: new Date(now - 40 * 60_000).toISOString() }),
    });
    if (!res.ok) throw new Error(`start: ${res.status} ${await res.text()}`);
  }
  const link = JSON.parse(execFileSync(process.execPath, [BIN, 'console-link', '--user', 'anna'], { env: { ...env, PUBLIC_BASE_URL: base }, encoding: 'utf8' })) as { url: string };

  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
  const page = await context.newPage();
  const shoot = async (name: string) => {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.screenshot({ path: join(OUT, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();

  await page.goto(`${base}/console/sign-in`);
  await heading(page, 'Sign in');
  await shoot('sign-in');
  await page.goto(link.url);
  await heading(page, 'Applications');
  await shoot('applications');
  await page.getByRole('link', { name: 'sky_walker' }).click();
  await page.getByRole('heading', { name: /^Application from/ }).waitFor();
  await page.getByLabel(/^Score/).fill('85');
  await page.getByLabel('Reviewer notes').fill('Strong answers; experienced with moderation tools.');
  await page.getByRole('button', { name: 'Save review' }).click();
  await page.getByRole('status').filter({ hasText: 'Review saved.' }).waitFor();
  await shoot('submission');
  await page.getByRole('link', { name: 'Time off', exact: true }).click();
  await heading(page, 'Time off');
  await shoot('time-off');
  await page.getByRole('link', { name: 'Stats', exact: true }).click();
  await heading(page, 'Stats');
  await shoot('stats');
  await page.getByRole('link', { name: 'Staff', exact: true }).click();
  await heading(page, 'Staff');
  await page.getByRole('list', { name: 'Staff' }).waitFor();
  await shoot('staff');
  await page.getByRole('link', { name: 'Ava', exact: true }).click();
  await heading(page, 'Ava');
  await page.getByRole('button', { name: 'Change rank' }).click();
  await page.getByLabel('New rank').selectOption('Head Moderator');
  await page.getByLabel('Reason (optional)').fill('Leads the evening team; trained three new moderators.');
  await shoot('change-rank');
  await page.getByRole('button', { name: 'Save rank change' }).click();
  await page.getByText('Roblox group: applied', { exact: false }).waitFor();
  await shoot('staff-member');
  await page.getByRole('link', { name: 'Leaderboard', exact: true }).click();
  await heading(page, 'Leaderboard');
  await page.getByRole('list', { name: 'Ranking' }).waitFor();
  await shoot('leaderboard');
  await page.getByRole('link', { name: 'On duty', exact: true }).click();
  await heading(page, 'On duty');
  await page.getByRole('list', { name: 'Shifts under way' }).waitFor();
  await shoot('on-duty');
  await browser.close();
  console.log(`wrote the screenshots to ${OUT}`);
} finally {
  server.kill('SIGTERM');
  await openCloud.close();
  rmSync(dir, { recursive: true, force: true });
}
