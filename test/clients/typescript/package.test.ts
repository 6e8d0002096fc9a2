import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_DIR, packClient } from './pack.ts';
import type { ServingProcess } from '../../helpers/cli.ts';
import { provisionedDatabase, serveGateway, WORLD, type ProvisionedDatabase } from './gateway.ts';

const run = promisify(execFile);


/**
 * The TypeScript client as a bot installs it: packed in its folder (`npm pack`, whose prepack step compiles it and
 * its examples), the tarball installed into a project of its own with its dependency, then imported by name from
 * plain JavaScript and called against a real gateway process; and its examples run, as compiled JavaScript, from
 * the installed package.
 */
describe('TypeScript client package, packed from the repository and installed', () => {
  let work: string;
  let project: string;
  let provisioned: ProvisionedDatabase;
  let server: ServingProcess;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'wsg-bot-'));
    project = join(work, 'bot');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bot', private: true, type: 'module' }));
    const tarball = await packClient(work);
    // standardwebhooks: the optional peer the webhook receiver example imports, which a project receiving webhooks adds.
    await run('npm', ['install', tarball, 'standardwebhooks@^1.1.1', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: project,
      timeout: 180_000,
    });
    provisioned = await provisionedDatabase('sqlite', []);
    server = await serveGateway(provisioned.database);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await provisioned?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('installs as compiled JavaScript with type declarations, and its dependency', () => {
    const installed = join(project, 'node_modules/@workspace-gateway/client');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
    expect(manifest.version).toBe(
      (JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8')) as { version: string }).version,
    );
    expect(existsSync(join(installed, 'dist/index.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist/index.d.ts'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/openapi-fetch/package.json'))).toBe(true);
  });

  it('is imported by name from plain JavaScript and calls the gateway', async () => {
    writeFileSync(
      join(project, 'bot.js'),
      [
        "import { createGatewayClient, GatewayError } from '@workspace-gateway/client';",
        'const gateway = createGatewayClient({ baseUrl: process.env.GATEWAY_URL, apiKey: process.env.GATEWAY_API_KEY });',
        'const integration = await gateway.getIntegration();',
        "const refused = await createGatewayClient({ baseUrl: process.env.GATEWAY_URL, apiKey: 'wsk_test_' + 'x'.repeat(40), retry: false })",
        '  .getIntegration().then(() => null, (error) => (error instanceof GatewayError ? error.code : String(error)));',
        'console.log(JSON.stringify({ integration, refused }));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['bot.js'], {
      cwd: project,
      env: { ...process.env, GATEWAY_URL: server.baseUrl, GATEWAY_API_KEY: provisioned.apiKey },
      timeout: 30_000,
    });
    const out = JSON.parse(stdout) as {
      integration: { status: number; body: { data: { environment: string } } };
      refused: string | null;
    };
    expect(out.integration.status).toBe(200);
    expect(out.integration.body.data.environment).toBe('test');
    expect(out.refused).toBe('unauthenticated');
  });

  it('runs its examples from the installed package, compiled beside their source: the chat bot answers a member', async () => {
    const examples = join(project, 'node_modules/@workspace-gateway/client/examples');
    for (const name of ['chat-bot', 'loa', 'review', 'webhook-receiver']) {
      expect(existsSync(join(examples, `${name}.ts`)), `${name}.ts`).toBe(true);
      expect(existsSync(join(examples, `${name}.js`)), `${name}.js`).toBe(true);
      expect(readFileSync(join(examples, `${name}.js`), 'utf8')).not.toMatch(/from '\.\.\/src|\.ts'/);
    }
    // As the client's README says to run them.
    const env = { ...process.env, GATEWAY_URL: server.baseUrl, GATEWAY_API_KEY: provisioned.apiKey };
    const bot = 'node_modules/@workspace-gateway/client/examples/chat-bot.js';
    const week = await run(process.execPath, [bot, WORLD.guildId, WORLD.alice.chatUserId], { cwd: project, env, timeout: 30_000 });
    expect(week.stdout).toMatch(/^\*\*Your week\*\*: /);
    const receiver = 'node_modules/@workspace-gateway/client/examples/webhook-receiver.js';
    const usage = await run(process.execPath, [receiver], { cwd: project, env: { ...process.env, WEBHOOK_SECRET: '' } }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(usage?.code).toBe(2);
    expect(usage?.stderr).toMatch(/^usage: WEBHOOK_SECRET=whsec_… \[PORT=8080\] node webhook-receiver\.js/);
  });
});
