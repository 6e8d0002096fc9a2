import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { runCli } from '../../helpers/cli.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { codeOf, exchange, seedConsoleWorld, type ConsoleWorld } from './helpers.ts';

describe.each(STORE_KINDS)('console-link (%s)', { timeout: 60_000 }, (kind) => {
  let ctx: TestContext;
  let world: ConsoleWorld;

  beforeAll(async () => {
    // The command runs on the system clock: the app's clock starts at the same time.
    ctx = await createTestContext(kind, { now: Date.now() });
    world = await seedConsoleWorld(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('prints { url, expiresAt } for a member of a workspace; the browser exchanges the code for that user', async () => {
    const started = Date.now();
    const res = await runCli(['console-link', '--user', world.users.noChat, '--database-url', ctx.database.url], {
      PUBLIC_BASE_URL: 'https://gateway.example.com',
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    const link = JSON.parse(res.stdout) as { url: string; expiresAt: string };
    expect(Object.keys(link)).toEqual(['url', 'expiresAt']);
    expect(link.url).toMatch(/^https:\/\/gateway\.example\.com\/console\/sign-in#code=[0-9A-Za-z]{43}$/);
    const expiresIn = Date.parse(link.expiresAt) - started;
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000 + 60_000);

    const session = await exchange(ctx, codeOf(link.url));
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().data.userId).toBe(world.users.noChat);
  });

  it('without PUBLIC_BASE_URL the address is http://HOST:PORT', async () => {
    const res = await runCli(['console-link', '--user', world.users.manager, '--database-url', ctx.database.url, '--port', '8123'], {
      PUBLIC_BASE_URL: '',
      HOST: '127.0.0.1',
    });
    expect(res.code, res.stderr).toBe(0);
    expect((JSON.parse(res.stdout) as { url: string }).url).toMatch(/^http:\/\/127\.0\.0\.1:8123\/console\/sign-in#code=/);
  });

  it('a user who is a member of no workspace: exit 1 with a message, nothing on stdout, no code stored', async () => {
    const before = await ctx.store.db.selectFrom('console_sign_in_codes').select('code_hash').execute();
    const res = await runCli(['console-link', '--user', 'user-provisioned-nowhere', '--database-url', ctx.database.url]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      'workspace-gateway: No workspace has a member with user id "user-provisioned-nowhere"; ' +
        "add it to a workspace's members (provisioning) first.\n",
    );
    expect(await ctx.store.db.selectFrom('console_sign_in_codes').select('code_hash').execute()).toHaveLength(before.length);
  });
});
