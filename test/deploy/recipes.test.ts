import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/cli/args.ts';
import { loadConfig } from '../../src/shared/config.ts';
import { ROOT, runCli, startCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.ts';

/**
 * The deployment recipes (Dockerfile, compose.yaml, deploy/workspace-gateway.service, .env.example) cannot be built
 * or started here, so they are read: their install and start steps must be the production install CI runs
 * (.ci/production-install.sh), their commands and flags ones the CLI has, their health check must pass against a
 * running gateway, and the settings they name must be the ones src/shared/config.ts reads. Simple line parsing:
 * the recipes keep the lines checked here on one line each (JSON arrays for exec forms).
 */
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** Shell words of one command line: quotes removed, a trailing `&` dropped. */
function shellWords(line: string): string[] {
  const words = [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  return words.at(-1) === '&' ? words.slice(0, -1) : words;
}

/** What .ci/production-install.sh runs: its npm install, and the command it serves with. */
function productionInstall(): { install: string[]; start: string[] } {
  const lines = read('.ci/production-install.sh').split('\n').map((line) => line.trim());
  const installs = lines.filter((line) => /^npm (ci|install)\b/.test(line));
  const starts = lines.filter((line) => /^node bin\/workspace-gateway\.js serve\b/.test(line));
  expect(installs).toHaveLength(1);
  expect(starts).toHaveLength(1);
  return { install: shellWords(installs[0] ?? ''), start: shellWords(starts[0] ?? '') };
}

/** CI's start command without `--port <n>`: a recipe sets PORT in the environment instead. */
function recipeStart(ciStart: readonly string[]): string[] {
  const at = ciStart.indexOf('--port');
  return at === -1 ? [...ciStart] : [...ciStart.slice(0, at), ...ciStart.slice(at + 2)];
}

/** The variables loadConfig reads: every name it asks an environment for. */
function configVariables(): Set<string> {
  const seen = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === 'string') seen.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return seen;
}

interface Instruction {
  readonly keyword: string;
  readonly rest: string;
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function dockerfile(): Instruction[] {
  const joined = read('Dockerfile')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), rest: rest.join(' ') };
    });
}

const instructions = (keyword: string) => dockerfile().filter((i) => i.keyword === keyword);
const onlyInstruction = (keyword: string): string => {
  const found = instructions(keyword);
  expect(found, keyword).toHaveLength(1);
  return found[0]?.rest ?? '';
};
/** `NAME=value` pairs of the Dockerfile's ENV instructions. */
const dockerEnv = (): Map<string, string> =>
  new Map(instructions('ENV').flatMap((i) => shellWords(i.rest).map((pair) => pair.split('=', 2) as [string, string])));
/** The exec-form array after `CMD` in a HEALTHCHECK. */
const dockerHealthCheck = (): string[] => JSON.parse(onlyInstruction('HEALTHCHECK').replace(/^.*?\bCMD\s+/, '')) as string[];

/** The lines of compose.yaml's `gateway` service, and the value of `key:` among them (trimmed). */
function composeGateway(): string[] {
  const lines = read('compose.yaml').split('\n');
  const start = lines.indexOf('  gateway:');
  expect(start).toBeGreaterThan(-1);
  const end = lines.findIndex((line, i) => i > start && /^ {0,2}\S/.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}
const composeValue = (block: string[], key: string): string => {
  const line = block.find((l) => l.trimStart().startsWith(`${key}:`));
  expect(line, key).toBeDefined();
  return (line ?? '').trimStart().slice(key.length + 1).trim();
};
/** Keys of the mapping under `parent:` in a block (the lines indented deeper than it). */
function composeMapping(block: string[], parent: string): string[] {
  const at = block.findIndex((line) => line.trim() === `${parent}:`);
  expect(at, parent).toBeGreaterThan(-1);
  const indent = (line: string) => line.length - line.trimStart().length;
  const own = indent(block[at] ?? '');
  const keys: string[] = [];
  for (const line of block.slice(at + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (indent(line) <= own) break;
    if (indent(line) === own + 2) keys.push(line.trim().split(':')[0] ?? '');
  }
  return keys;
}

/** `Key=value` lines of the systemd unit (a key given several times keeps every value). */
function unitSettings(): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of read('deploy/workspace-gateway.service').split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match?.[1] === undefined) continue;
    settings.set(match[1], [...(settings.get(match[1]) ?? []), match[2] ?? '']);
  }
  return settings;
}
const unitValue = (key: string): string => {
  const values = unitSettings().get(key) ?? [];
  expect(values, key).toHaveLength(1);
  return values[0] ?? '';
};

/** The commands `--help` lists (the first word of each usage entry). */
async function cliCommands(): Promise<Set<string>> {
  const help = await runCli(['--help']);
  expect(help.code).toBe(0);
  return new Set([...help.stdout.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1] ?? ''));
}

/** A start command the CLI accepts: `node <bin> <command> [options]` with a listed command and its options. */
async function expectRealStart(argv: readonly string[]): Promise<void> {
  expect(basename(argv[0] ?? '')).toBe('node');
  expect(argv[1]?.endsWith('bin/workspace-gateway.js')).toBe(true);
  const command = argv[2] ?? '';
  expect(await cliCommands()).toContain(command);
  expect(() => parseCommand(command, argv.slice(3))).not.toThrow();
}

describe('the container image (Dockerfile)', () => {
  it('installs as CI does: the same npm ci command and flags, and nothing else from npm', () => {
    const { install } = productionInstall();
    const runs = instructions('RUN').map((i) => shellWords(i.rest).filter((word) => !word.startsWith('--mount=')));
    const npm = runs.filter((words) => words.includes('npm'));
    expect(npm).toEqual([install]);
    expect(install.slice(0, 3)).toEqual(['npm', 'ci', '--omit=dev']);
  });

  it('starts the command CI serves with, on Node 24, as a user other than root', async () => {
    const cmd = JSON.parse(onlyInstruction('CMD')) as string[];
    expect(cmd).toEqual(recipeStart(productionInstall().start));
    await expectRealStart(cmd);
    expect(onlyInstruction('FROM')).toMatch(/^node:24(-[a-z0-9.-]+)?$/);
    expect(onlyInstruction('USER')).not.toMatch(/^(root|0)(:|$)/);
  });

  it('listens on every interface and keeps the embedded database on the /data volume', () => {
    const env = dockerEnv();
    expect(env.get('HOST')).toBe('0.0.0.0');
    expect(env.get('DATABASE_URL')).toBe('sqlite:/data/gateway.db');
    expect(JSON.parse(onlyInstruction('VOLUME'))).toEqual(['/data']);
    const variables = configVariables();
    for (const name of env.keys()) expect(variables, `ENV ${name}`).toContain(name);
  });

  it('copies the tracked files only: .dockerignore leaves out everything .gitignore does, at any depth', () => {
    expect(instructions('COPY').map((i) => i.rest)).toContain('. .');
    const ignored = new Set(read('.dockerignore').split('\n').map((line) => line.trim()));
    expect(ignored).toContain('.git');
    for (const pattern of read('.gitignore').split('\n').map((line) => line.trim())) {
      if (pattern === '' || pattern.startsWith('#')) continue;
      const anyDepth = !pattern.replace(/\/$/, '').includes('/') && !pattern.endsWith('/');
      expect(ignored.has(pattern) || (anyDepth && ignored.has(`**/${pattern}`)), pattern).toBe(true);
    }
  });
});

describe('compose.yaml', () => {
  it("runs the image's start command and health check", async () => {
    const gateway = composeGateway();
    const command = JSON.parse(composeValue(gateway, 'command')) as string[];
    expect(command).toEqual(JSON.parse(onlyInstruction('CMD')));
    await expectRealStart(command);
    const test = JSON.parse(composeValue(gateway, 'test')) as string[];
    expect(test).toEqual(['CMD', ...dockerHealthCheck()]);
  });

  it('sets only variables the gateway reads, among them a trusted proxy that is Caddy', () => {
    const gateway = composeGateway();
    const names = composeMapping(gateway, 'environment');
    const variables = configVariables();
    for (const name of names) expect(variables, name).toContain(name);
    expect(names).toEqual(expect.arrayContaining(['HOST', 'DATABASE_URL', 'REDIS_URL', 'TRUST_PROXY', 'PUBLIC_BASE_URL']));
    const trusted = composeValue(gateway, 'TRUST_PROXY');
    expect(read('compose.yaml')).toContain(`ipv4_address: ${trusted}`);
    expect(read('Caddyfile')).toMatch(/reverse_proxy gateway:3000\b/);
  });
});

describe('the systemd unit (deploy/workspace-gateway.service)', () => {
  it('starts the command CI serves with', async () => {
    const argv = shellWords(unitValue('ExecStart'));
    expect(argv.slice(1)).toEqual(recipeStart(productionInstall().start).slice(1));
    await expectRealStart(argv);
  });

  it('runs as a dedicated user from an environment file, restarts, and is confined', () => {
    expect(unitValue('User')).toBe('workspace-gateway');
    expect(unitValue('EnvironmentFile')).toMatch(/^-?\//);
    expect(unitValue('Restart')).toBe('on-failure');
    expect(unitValue('NoNewPrivileges')).toBe('yes');
    expect(unitValue('ProtectSystem')).toBe('strict');
    const variables = configVariables();
    for (const pair of shellWords(unitValue('Environment'))) expect(variables).toContain(pair.split('=')[0]);
  });
});

describe('.env.example', () => {
  const [gatewayPart = '', composePart = ''] = read('.env.example').split(/^# === compose\.yaml only.*$/m);
  const names = (text: string) => [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? '');

  it('lists exactly the variables src/shared/config.ts reads, each once', () => {
    const listed = names(gatewayPart);
    expect(new Set(listed).size).toBe(listed.length);
    expect(new Set(listed)).toEqual(configVariables());
  });

  it("then only compose.yaml's own variables, which the gateway does not read", () => {
    const listed = names(composePart);
    expect(listed.length).toBeGreaterThan(0);
    const compose = read('compose.yaml');
    for (const name of listed) {
      expect(compose, name).toContain(`\${${name}`);
      expect(configVariables()).not.toContain(name);
    }
  });
});

describe('the health check, run against a gateway', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite', { migrate: false });
  });
  afterAll(async () => {
    await database.drop();
  });

  const runCheck = (port: string) => {
    const [node, ...args] = dockerHealthCheck();
    expect(node).toBe('node');
    return spawnSync(process.execPath, args, { env: { PATH: process.env.PATH, PORT: port }, timeout: 20_000 });
  };

  it('passes while the gateway serves, and fails once it is gone', async () => {
    const server = await startCli(['serve', '--port', '0', '--database-url', database.url]);
    const port = new URL(server.baseUrl).port;
    try {
      expect(runCheck(port).status).toBe(0);
    } finally {
      await server.stop();
    }
    expect(runCheck(port).status).toBe(1);
  });
});
