import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, startCli, type CliResult } from './helpers/cli.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from './helpers/stores.ts';
import { printableDatabaseUrl } from '../src/cli/serve-notice.ts';

const EXAMPLE = join(ROOT, 'examples/provision.example.json');
const ID = '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0001';

/** Every command that works on an existing database: run on one that does not exist, each must refuse. */
const COMMANDS: string[][] = [
  ['keys', 'list'],
  ['keys', 'revoke', ID],
  ['provision', EXAMPLE],
  ['rebuild-totals'],
  ['erase', '--game-user-id', '1001'],
  ['prune'],
  ['webhooks', 'deliveries', '--workspace', ID],
  ['tokens', 'create', '--user', 'someone'],
  ['console-link', '--user', 'someone'],
  ['backup', 'copy.db'],
  ['discord', 'commands', '--workspace', ID],
];

/** The CLI run in `cwd` with an environment that has no DATABASE_URL, as a shell without the service's environment. */
function runWithoutDatabaseUrl(args: string[], cwd: string): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a command pointed at a SQLite database that does not exist', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wsg-missing-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(COMMANDS.map((args) => [args.join(' '), args] as const))('%s: refuses it, names the path and DATABASE_URL, exits non-zero and creates nothing', async (_name, args) => {
    const file = join(dir, 'absent', 'gateway.db');
    const res = await runCli(args, { DATABASE_URL: `sqlite:${file}` });
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`no database at ${file}`);
    expect(res.stderr).toContain('DATABASE_URL');
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(dir, 'absent'))).toBe(false);
  });

  it('without DATABASE_URL, keys list says it tried the default ./data/gateway.db instead of answering an empty list', async () => {
    const res = await runWithoutDatabaseUrl(['keys', 'list'], dir);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`no database at ${join(dir, 'data', 'gateway.db')}`);
    expect(res.stderr).toContain('from the default, DATABASE_URL is not set');
    expect(res.stderr).toContain('point the command at the gateway\'s database with DATABASE_URL or --database-url');
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('provision names --create, and with --create makes the database and applies the document', async () => {
    const file = join(dir, 'new', 'gateway.db');
    const refused = await runCli(['provision', EXAMPLE, '--database-url', `sqlite:${file}`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('from --database-url');
    expect(refused.stderr).toContain('or pass --create to make a new one there');
    expect(existsSync(file)).toBe(false);

    const created = await runCli(['provision', '--create', EXAMPLE, '--database-url', `sqlite:${file}`]);
    expect(created.code, created.stderr).toBe(0);
    expect((JSON.parse(created.stdout) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    expect(existsSync(file)).toBe(true);
    // Now that it exists, the other commands use it.
    const listed = await runCli(['keys', 'list', '--database-url', `sqlite:${file}`]);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
  });
});

describe('the database serve names', () => {
  it('masks a PostgreSQL password and keeps everything else', () => {
    expect(printableDatabaseUrl('postgres://gw:s3cret@db:5432/gateway?sslmode=require')).toBe('postgres://gw:***@db:5432/gateway?sslmode=require');
    expect(printableDatabaseUrl('postgresql://gw@localhost/gateway?host=/var/run/postgresql')).toBe('postgresql://gw@localhost/gateway?host=/var/run/postgresql');
    expect(printableDatabaseUrl('sqlite:/var/lib/workspace-gateway/gateway.db')).toBe('sqlite:/var/lib/workspace-gateway/gateway.db');
  });
});

describe.each(STORE_KINDS)('a command on an existing database (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('every command prints its JSON the same way: indented by two spaces, one newline at the end', async () => {
    const commands = [['migrate'], ['migrate', '--status'], ['provision', EXAMPLE], ['rebuild-totals'], ['prune'], ['keys', 'list']];
    for (const args of commands) {
      const res = await runCli(args, { DATABASE_URL: database.url });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      expect(res.stdout, args.join(' ')).toBe(`${JSON.stringify(JSON.parse(res.stdout), null, 2)}\n`);
    }
  });

  it('serve names the database it opened (never its password) and, while nothing is provisioned, what to do', async () => {
    const serveOnce = async () => {
      const server = await startCli(['serve', '--port', '0'], { DATABASE_URL: database.url }, (output) =>
        /serving on database /.test(output) ? /listening at (http:\/\/127\.0\.0\.1:\d+)|"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.slice(1).find(Boolean) ?? 'http://127.0.0.1' : undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const output = server.output();
      expect(await server.stop()).toBe(0);
      return output;
    };
    const empty = await createTestDatabase(kind);
    try {
      const server = await startCli(['serve', '--port', '0'], { DATABASE_URL: empty.url }, (output) =>
        /nothing is provisioned in this database yet[^\n]*\n/.test(output) ? 'http://127.0.0.1' : undefined,
      );
      const output = server.output();
      expect(await server.stop()).toBe(0);
      expect(output).toContain(`serving on database ${kind === 'sqlite' ? empty.url : empty.url.replace(/:[^:@/]+@/, ':***@')}`);
      expect(output).toContain('workspace-gateway provision <file.json>');
    } finally {
      await empty.drop();
    }
    await runCli(['provision', EXAMPLE], { DATABASE_URL: database.url });
    const provisioned = await serveOnce();
    expect(provisioned).toContain(`serving on database ${database.url}`);
    expect(provisioned).not.toContain('nothing is provisioned');
  });

  it('runs as before: provision without --create, then keys list', async () => {
    const provisioned = await runCli(['provision', EXAMPLE], { DATABASE_URL: database.url });
    expect(provisioned.code, provisioned.stderr).toBe(0);
    const listed = await runCli(['keys', 'list'], { DATABASE_URL: database.url });
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
  });
});
