import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_DIR, packClient } from './pack.ts';
import { createGatewayClient } from '../../../clients/typescript/src/index.ts';


const run = promisify(execFile);


interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  scripts?: Record<string, string>;
}

/**
 * The client as an integrator gets it: `npm pack` in its folder, the tarball installed into a fresh project (from
 * the local npm cache when it has the dependency, which a root install leaves there), then imported by name from
 * plain JavaScript. No gateway: a transport of the test's own answers the call.
 */
describe('TypeScript client package, packed and installed from its tarball', () => {
  let work: string;
  let project: string;
  let tarball: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'wsg-pack-'));
    project = join(work, 'bot');
    tarball = await packClient(work);
    await run('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bot', private: true, type: 'module' }));
    const install = (mode: string) =>
      run('npm', ['install', tarball, mode, '--no-audit', '--no-fund'], { cwd: project, timeout: 120_000 });
    // Offline first (fast, and what the cache of a root install allows); the registry only when the cache lacks it.
    await install('--offline').catch(() => install('--prefer-offline'));
  }, 240_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is publishable: not private, Apache-2.0, its one runtime dependency a caret range, the examples’ import an optional peer', () => {
    const manifest = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('Apache-2.0');
    expect(manifest.dependencies).toEqual({ 'openapi-fetch': expect.stringMatching(/^\^0\.17\./) as unknown });
    expect(manifest.peerDependencies?.standardwebhooks).toMatch(/^\^1\./);
    expect(manifest.peerDependenciesMeta?.standardwebhooks?.optional).toBe(true);
    // Compiled when packed (and published), never on an install: nothing runs in the integrator's project.
    expect(manifest.scripts?.prepare).toBeUndefined();
    expect(manifest.scripts?.prepack).toBe('npm run build');
  });

  it('its README names every operation of the client', () => {
    const readme = readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8');
    const client = createGatewayClient({ baseUrl: 'http://gateway.invalid', fetch: () => Promise.reject(new Error('unused')) });
    const operations = Object.keys(client).filter((name) => name !== 'api');
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it('installs compiled JavaScript with declarations, its README, licence and examples, and openapi-fetch but not the optional peer', () => {
    const installed = join(project, 'node_modules/@workspace-gateway/client');
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'README.md', 'LICENSE', 'examples/webhook-receiver.ts', 'examples/webhook-receiver.js']) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    expect(existsSync(join(project, 'node_modules/openapi-fetch/package.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/standardwebhooks'))).toBe(false);
  });

  it('is imported by name and makes a typed call through the transport it is given', async () => {
    writeFileSync(
      join(project, 'bot.js'),
      [
        "import { createGatewayClient, GatewayError } from '@workspace-gateway/client';",
        'const seen = [];',
        'const fetch = async (request) => {',
        '  seen.push([request.method, new URL(request.url).pathname, request.headers.get("authorization")]);',
        "  return new Response(JSON.stringify({ error: { code: 'unauthenticated', message: 'no', requestId: 'req_1' } }), {",
        "    status: 401, headers: { 'content-type': 'application/json' } });",
        '};',
        "const gateway = createGatewayClient({ baseUrl: 'http://gateway.invalid/', apiKey: 'wsk_test_abc', fetch });",
        'const code = await gateway.getIntegration().then(() => null, (e) => (e instanceof GatewayError ? e.code : String(e)));',
        'console.log(JSON.stringify({ code, seen }));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['bot.js'], { cwd: project, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      code: 'unauthenticated',
      seen: [['GET', '/v1/integration', 'Bearer wsk_test_abc']],
    });
  });
});
