import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type ServingProcess } from '../../helpers/cli.ts';
import { provisionedDatabase, serveGateway, type ProvisionedDatabase } from './gateway.ts';

const run = promisify(execFile);
const CLIENT_DIR = join(ROOT, 'clients/typescript');

/**
 * The TypeScript client as a bot installs it: its own package, installed from the repository path into a project of
 * its own (packed, so its `prepare` step compiles it, and its dependency installed beside it), then imported by
 * name from plain JavaScript and called against a real gateway process.
 */
describe('TypeScript client package, installed from the repository path', () => {
  let project: string;
  let provisioned: ProvisionedDatabase;
  let server: ServingProcess;

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'wsg-bot-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bot', private: true, type: 'module' }));
    await run('npm', ['install', '--install-links', '--no-audit', '--no-fund', '--prefer-offline', CLIENT_DIR], {
      cwd: project,
      timeout: 180_000,
    });
    provisioned = await provisionedDatabase('sqlite', []);
    server = await serveGateway(provisioned.database);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await provisioned?.drop();
    if (project) rmSync(project, { recursive: true, force: true });
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
});
