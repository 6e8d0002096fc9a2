import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';

const ID = '00000000-0000-4000-8000-00000000beef';

// Arguments are judged before any database is opened, so one store serves: the file must never appear.
describe('command-line arguments', { timeout: 120_000 }, () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wsg-cli-usage-'));
    file = join(dir, 'never.db');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [['serve', '--verbose'], 'serve takes no --verbose'],
    [['keys', 'list', '--grace-seconds', '5'], 'keys list takes no --grace-seconds'],
    [['rebuild-totals', '--workspace'], '--workspace needs a value'],
    [['keys', 'create', '--environment', 'test', '--application'], '--application needs a value'],
    [['keys', 'revoke', 'not-a-key'], 'the key id must be a uuid, got "not-a-key"'],
    [['keys', 'rotate', 'not-a-key', '--grace-seconds', '10'], 'the key id must be a uuid, got "not-a-key"'],
    [['keys', 'list', '--application', 'app-1'], '--application must be a uuid, got "app-1"'],
    [['rebuild-totals', '--workspace', 'w-1'], '--workspace must be a uuid, got "w-1"'],
    [['webhooks', 'deliveries', '--workspace', ID, '--limit', '0'], '--limit must be a whole number from 1 to 1000'],
    [['webhooks', 'redeliver', 'e-1'], 'the event id must be a uuid, got "e-1"'],
    [['keys', 'list', '--application', ID, '--application', ID], '--application is given more than once'],
    [['provision'], 'provision needs exactly one file'],
    [['erase'], 'erase needs --game-user-id: --game-user-id must be 1 to 32 digits'],
    [['erase', '--game-user-id', '12a'], '--game-user-id must be 1 to 32 digits, got "12a"'],
    [['erase', '--game-user-id', '1'.repeat(33)], `--game-user-id must be 1 to 32 digits, got "${'1'.repeat(33)}"`],
    [['erase', '--game-user-id=-1'], '--game-user-id must be 1 to 32 digits, got "-1"'],
    [['erase', '--game-user-id', ''], '--game-user-id needs a value'],
    [['erase', '--game-user-id', '1', '--game-user-id', '2'], '--game-user-id is given more than once'],
    [['erase', '--game-user-id', '1', '2'], 'erase takes no arguments, got "2"'],
    [['erase', '--gameuserid', '1'], 'erase takes no --gameuserid'],
    [['prune', '--days=-1'], '--days must be a whole number from 0 to 36500, got "-1"'],
    [['prune', '--days', 'x'], '--days must be a whole number from 0 to 36500, got "x"'],
    [['prune', '--days'], '--days needs a value'],
    [['prune', 'now'], 'prune takes no arguments, got "now"'],
    [['console-link'], 'console-link needs --user'],
    [['console-link', '--user'], '--user needs a value'],
    [['console-link', '--user', 'a', '--workspace', ID], 'console-link takes no --workspace'],
    [['roblox'], 'roblox needs a subcommand'],
    [['roblox', 'roles'], 'roblox roles needs --group: --group must be 1 to 20 digits'],
    [['roblox', 'roles', '--group', '12a'], '--group must be 1 to 20 digits, got "12a"'],
    [['roblox', 'roles', '--group', '1', '--api-key', 'k'], 'roblox roles takes no --api-key: put the key in ROBLOX_API_KEY'],
  ])('%j is refused on stderr, naming the argument, with the usage and a non-zero exit', async (args, message) => {
    const res = await runCli(args, { DATABASE_URL: `sqlite:${file}` });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(`workspace-gateway: ${message}`);
    expect(res.stderr).toContain('Usage: workspace-gateway <command> [options]');
    expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(res.stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });

  it.each([[['--help']], [['help']], [['serve', '--help']], [['keys', 'rotate', '-h']]])(
    '%j prints the usage on stdout and exits 0 without running anything',
    async (args) => {
      const res = await runCli(args, { DATABASE_URL: `sqlite:${file}` });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('Usage: workspace-gateway <command> [options]');
      expect(res.stdout).toContain('webhooks deliveries --workspace <id>');
      expect(res.stdout).toContain('erase --game-user-id <id>');
      expect(res.stdout).toContain('roblox roles --group <id> [--api-key-env <NAME>]');
      expect(existsSync(file)).toBe(false);
    },
  );
});
