import { describe, expect, it } from 'vitest';
import { startCli } from './helpers/cli.ts';
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

describe.each(STORE_KINDS)('demo (%s)', (kind) => {
  it('provisions, prints a working test key, a reviewer\'s and a manager\'s token and curl commands that all succeed, and serves', async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    const demo = await startCli(
      ['demo', '--port', '0', '--database-url', database.url],
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
      expect(out).toMatch(/curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/integration/);
      expect(out).toMatch(/Metrics \(Prometheus\):\s+http:\/\/127\.0\.0\.1:\d+\/metrics/);
      expect((await demo.request('/ready')).statusCode).toBe(200);
      const res = await demo.request('/v1/integration', { headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { data: { workspace: { slug: string }; environment: string } };
      expect(body.data.workspace.slug).toBe('demo-community');
      expect(body.data.environment).toBe('test');

      // Every printed command, in the order printed, as a person pasting them one by one would run them.
      const commands = out
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.startsWith('curl '));
      const submit = commands.findIndex((c) => /-X POST \S+\/v1\/applications\/forms\/[0-9a-f-]+\/submissions /.test(c));
      const queue = commands.findIndex((c) => c.includes('/v1/applications/submissions?'));
      expect(submit).toBeGreaterThanOrEqual(0);
      expect(queue).toBeGreaterThan(submit);
      const ask = commands.findIndex((c) => /-X POST \S+\/v1\/staff\/me\/inactivity-notices /.test(c));
      const notices = commands.findIndex((c) => c.includes('/v1/staff/inactivity-notices?'));
      expect(ask).toBeGreaterThanOrEqual(0);
      expect(notices).toBeGreaterThan(ask);
      const answers: unknown[] = [];
      for (const command of commands) {
        const request = parseCurl(command);
        expect(request.url.startsWith(demo.baseUrl), command).toBe(true);
        const reply = await demo.request(request.url.slice(demo.baseUrl.length), {
          method: request.method,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        expect(reply.statusCode, `${command}\n${JSON.stringify(reply.json())}`).toBe(200);
        answers.push(reply.json());
      }

      const submitRequest = parseCurl(commands[submit] ?? '');
      expect(submitRequest.headers['content-type']).toBe('application/json');
      expect(submitRequest.headers['idempotency-key']).toMatch(/^\d+$/);
      expect(submitRequest.headers.authorization).toBe(`Bearer ${key}`);
      const submitted = (answers[submit] as { data: SubmitData }).data.submission;
      expect(submitted).toMatchObject({ status: 'submitted', environment: 'test' });

      const queueRequest = parseCurl(commands[queue] ?? '');
      expect(queueRequest.headers.authorization).toBe(`Bearer ${token}`);
      const listed = (answers[queue] as { data: QueueData }).data.submissions;
      expect(listed.map((s) => [s.id, s.status, s.applicant.gameUserId])).toContainEqual([submitted.id, 'submitted', '3001']);

      // Alice asks for time off with the bot's key; the manager's list of the test environment shows it pending.
      const askRequest = parseCurl(commands[ask] ?? '');
      expect(askRequest.headers.authorization).toBe(`Bearer ${key}`);
      expect(askRequest.headers['idempotency-key']).toMatch(/^\d+$/);
      const asked = (answers[ask] as { data: NoticeData }).data.notice;
      expect(asked).toMatchObject({ status: 'pending', environment: 'test' });
      expect(Date.parse(asked.startsAt)).toBeGreaterThan(Date.now());
      const noticesRequest = parseCurl(commands[notices] ?? '');
      expect(noticesRequest.headers.authorization).toBe(`Bearer ${managerToken}`);
      const pending = (answers[notices] as { data: NoticeListData }).data.notices;
      expect(pending.map((n) => [n.id, n.status, n.staff.gameUserId])).toEqual([[asked.id, 'pending', '1001']]);
      // The printed link signs the reviewer in to the console; the bot's command makes another one.
      const code = signInLink.split('#code=')[1] ?? '';
      const session = await demo.request('/v1/console/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      expect(session.statusCode, session.body).toBe(200);
      const signedIn = (session.json() as { data: { token: string; userId: string } }).data;
      expect(signedIn.userId).toBe('demo-reviewer');
      const me = await demo.request('/v1/console/me', { headers: { authorization: `Bearer ${signedIn.token}` } });
      expect((me.json() as { data: { workspaces: { name: string }[] } }).data.workspaces.map((w) => w.name)).toEqual(['Demo Community']);
      const link = commands.findIndex((c) => c.includes('/v1/console/sign-in-links'));
      expect((answers[link] as { data: { url: string } }).data.url).toMatch(/\/console\/sign-in#code=/);
      // The reviewer may review applications but not decide on time off.
      const reviewer = await demo.request(noticesRequest.url.slice(demo.baseUrl.length), { headers: { authorization: `Bearer ${token}` } });
      expect(reviewer.statusCode).toBe(403);
    } finally {
      expect(await demo.stop('SIGINT')).toBe(0);
      await database.drop();
    }
  });
});
