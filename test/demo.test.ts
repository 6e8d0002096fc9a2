import { describe, expect, it } from 'vitest';
import { runCli, startCli } from './helpers/cli.ts';
import { parseCurl } from './helpers/curl.ts';
import { createTestDatabase, STORE_KINDS } from './helpers/stores.ts';

interface SubmitData {
  readonly submission: { readonly id: string; readonly status: string; readonly environment: string };
}
interface NoticeData {
  readonly notice: { readonly id: string; readonly status: string; readonly environment: string; readonly startsAt: string };
}
interface NoticeListData {
  readonly notices: { readonly id: string; readonly status: string; readonly staff: { readonly gameUserId: string } }[];
}
interface QueueData {
  readonly submissions: { readonly id: string; readonly status: string; readonly applicant: { readonly gameUserId: string } }[];
}

interface SubmissionDetail {
  readonly submission: { readonly formName: string | null; readonly history: { readonly type: string; readonly actor: { readonly type: string } }[] };
}
interface KeyList {
  readonly keys: { readonly id: string; readonly expiresAt: string | null }[];
}

/**
 * One run of the demo on `url`: it provisions, prints a working key, tokens, console links and explained commands,
 * and every printed command answers 200 when run in the order printed.
 */
async function demoRound(url: string): Promise<void> {
  const demo = await startCli(
    ['demo', '--port', '0', '--database-url', url],
    { LOG_LEVEL: 'silent' },
    (output) => /serving at (http:\/\/127\.0\.0\.1:\d+)[\s\S]*Press Ctrl\+C/.exec(output)?.[1],
  );
  try {
    const out = demo.output();
    const key = /Test API key[^:]*:\s+(wsk_test_[0-9A-Za-z]+)/.exec(out)?.[1];
    expect(key).toBeDefined();
    const token = /Dashboard token[^:]*:\s+(ey\S+)/.exec(out)?.[1];
    expect(token).toBeDefined();
    const managerToken = /Manager token[^:]*:\s+(ey\S+)/.exec(out)?.[1];
    expect(managerToken).toBeDefined();
    const signInLink = /Reviewer console[^:]*:\s+(\S+)/.exec(out)?.[1] ?? '';
    expect(signInLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/sign-in#code=[0-9A-Za-z]{43}$/);
    const managerLink = /Manager console[^:]*:\s+(\S+)/.exec(out)?.[1] ?? '';
    expect(managerLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/sign-in#code=[0-9A-Za-z]{43}$/);
    expect(out).toContain(`API reference:`);
    expect(out).toMatch(/API reference:\s+http:\/\/127\.0\.0\.1:\d+\/docs\n/);
    expect((await fetch(`${demo.baseUrl}/docs`)).status).toBe(200);
    expect(out).toMatch(/curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/integration/);
    expect(out).toMatch(/Metrics \(Prometheus\):\s+http:\/\/127\.0\.0\.1:\d+\/metrics/);
    expect((await demo.request('/ready')).statusCode).toBe(200);
    const res = await demo.request('/v1/integration', { headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: { workspace: { slug: string }; environment: string } };
    expect(body.data.workspace.slug).toBe('demo-community');
    expect(body.data.environment).toBe('test');

    // Every printed command comes after a line that explains it.
    const lines = out.split('\n').map((line) => line.trim());
    const commands = lines.filter((line) => line.startsWith('curl '));
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) expect(lines[lines.indexOf(command) - 1], command).toMatch(/^# \S.{10,}/);
    const submit = commands.findIndex((c) => /-X POST \S+\/v1\/applications\/forms\/[0-9a-f-]+\/submissions /.test(c));
    const queue = commands.findIndex((c) => c.includes('/v1/applications/submissions?'));
    expect(submit).toBeGreaterThanOrEqual(0);
    expect(queue).toBeGreaterThan(submit);
    const ask = commands.findIndex((c) => /-X POST \S+\/v1\/staff\/me\/inactivity-notices /.test(c));
    const notices = commands.findIndex((c) => c.includes('/v1/staff/inactivity-notices?'));
    expect(ask).toBeGreaterThanOrEqual(0);
    expect(notices).toBeGreaterThan(ask);
    const review = commands.findIndex((c) => c.includes('/mark-under-review'));
    const sampleId = /submissions\/([0-9a-f-]{36})\/mark-under-review/.exec(commands[review] ?? '')?.[1] ?? '';
    // The sample application was sent through the form: it has the form, and a "submitted" entry by the game's key.
    const sample = await demo.request(`/v1/applications/submissions/${sampleId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(sample.statusCode, sample.body).toBe(200);
    const detail = (sample.json() as { data: SubmissionDetail }).data.submission;
    expect(detail.formName).toBe('Moderator application');
    expect(detail.history.map((entry) => [entry.type, entry.actor.type])).toEqual([['submitted', 'api_key']]);

    const answers: unknown[] = [];
    for (const command of commands) {
      const request = parseCurl(command);
      expect(request.url.startsWith(demo.baseUrl), command).toBe(true);
      if (command.includes('Idempotency-Key')) expect(request.headers['idempotency-key'], command).toMatch(/^\d+$/);
      const reply = await demo.request(request.url.slice(demo.baseUrl.length), {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      expect(reply.statusCode, `${command}\n${JSON.stringify(reply.json())}`).toBe(200);
      answers.push(reply.json());
    }
    const reviewed = await demo.request(`/v1/applications/submissions/${sampleId}`, { headers: { authorization: `Bearer ${token}` } });
    expect((reviewed.json() as { data: { submission: { status: string } } }).data.submission.status).toBe('under_review');

    // Activity: Dana's shift is under way (the demo's heartbeats keep it), the leaderboard has a week of shifts.
    const active = commands.findIndex((c) => c.includes('/v1/activity/shifts/active'));
    const shifts = (answers[active] as { data: { shifts: { staff: { displayName: string } }[] } }).data.shifts;
    expect(shifts.map((s) => s.staff.displayName)).toContain('Dana');
    const board = commands.findIndex((c) => c.includes('/v1/activity/leaderboard'));
    const entries = (answers[board] as { data: { entries: { displayName: string; completedShifts: number }[] } }).data.entries;
    expect(entries.filter((e) => e.completedShifts > 0).map((e) => e.displayName).sort()).toEqual(
      expect.arrayContaining(['Dana', 'Evan']),
    );

    const submitRequest = parseCurl(commands[submit] ?? '');
    expect(submitRequest.headers['content-type']).toBe('application/json');
    expect(submitRequest.headers.authorization).toBe(`Bearer ${key}`);
    const submitted = (answers[submit] as { data: SubmitData }).data.submission;
    expect(submitted).toMatchObject({ status: 'submitted', environment: 'test' });

    const queueRequest = parseCurl(commands[queue] ?? '');
    expect(queueRequest.headers.authorization).toBe(`Bearer ${token}`);
    const listed = (answers[queue] as { data: QueueData }).data.submissions;
    expect(listed.map((s) => [s.id, s.status])).toContainEqual([submitted.id, 'submitted']);

    // Alice asks for time off with the bot's key; the manager's list of the test environment shows it pending.
    const askRequest = parseCurl(commands[ask] ?? '');
    expect(askRequest.headers.authorization).toBe(`Bearer ${key}`);
    const asked = (answers[ask] as { data: NoticeData }).data.notice;
    expect(asked).toMatchObject({ status: 'pending', environment: 'test' });
    expect(Date.parse(asked.startsAt)).toBeGreaterThan(Date.now());
    const noticesRequest = parseCurl(commands[notices] ?? '');
    expect(noticesRequest.headers.authorization).toBe(`Bearer ${managerToken}`);
    const pending = (answers[notices] as { data: NoticeListData }).data.notices;
    expect(pending.map((n) => [n.id, n.status, n.staff.gameUserId])).toContainEqual([asked.id, 'pending', '1001']);
    // The printed links sign the reviewer and the manager in to the console; the bot's command makes another one.
    for (const [link, userId] of [[signInLink, 'demo-reviewer'], [managerLink, 'demo-manager']] as const) {
      const code = link.split('#code=')[1] ?? '';
      const session = await demo.request('/v1/console/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      expect(session.statusCode, session.body).toBe(200);
      const signedIn = (session.json() as { data: { token: string; userId: string } }).data;
      expect(signedIn.userId).toBe(userId);
      const me = await demo.request('/v1/console/me', { headers: { authorization: `Bearer ${signedIn.token}` } });
      expect((me.json() as { data: { workspaces: { name: string }[] } }).data.workspaces.map((w) => w.name)).toEqual(['Demo Community']);
    }
    const link = commands.findIndex((c) => c.includes('/v1/console/sign-in-links'));
    expect((answers[link] as { data: { url: string } }).data.url).toMatch(/\/console\/sign-in#code=/);
    // The reviewer may review applications but not decide on time off.
    const reviewer = await demo.request(noticesRequest.url.slice(demo.baseUrl.length), { headers: { authorization: `Bearer ${token}` } });
    expect(reviewer.statusCode).toBe(403);

    // `console-link --demo` with the printed options makes a link on the demo's port and database.
    const printed = lines.find((line) => line.startsWith('npx workspace-gateway console-link --demo --user demo-manager')) ?? '';
    const port = new URL(demo.baseUrl).port;
    expect(printed).toContain(`--port ${port}`);
    const made = await runCli(['console-link', '--demo', '--user', 'demo-manager', '--port', port, '--database-url', url]);
    expect(made.code, made.stderr).toBe(0);
    expect((JSON.parse(made.stdout) as { url: string }).url.startsWith(`${demo.baseUrl}/console/sign-in#code=`)).toBe(true);

    // The run's key expires within a day; none of the demo's keys works forever.
    const keys = await runCli(['keys', 'list', '--database-url', url]);
    expect(keys.code, keys.stderr).toBe(0);
    const listedKeys = (JSON.parse(keys.stdout) as KeyList).keys;
    expect(listedKeys.length).toBeGreaterThan(0);
    for (const k of listedKeys) {
      expect(k.expiresAt).not.toBeNull();
      expect(Date.parse(k.expiresAt ?? '')).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    }
  } finally {
    expect(await demo.stop('SIGINT')).toBe(0);
  }
}

describe.each(STORE_KINDS)('demo (%s)', (kind) => {
  it('twice on one database: each run prints a working key, tokens, console links and explained commands that all succeed', async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    try {
      await demoRound(database.url);
      await demoRound(database.url);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
