import { parseArgs } from 'node:util';
import { optional, parseCommand, UsageError } from './cli/args.ts';
import { systemClock } from './shared/clock.ts';
import { text, uuid } from './cli/values.ts';
import { ConfigError, loadConfig } from './shared/config.ts';
import { BackupError } from './db/backup.ts';
import { openStore } from './db/connect.ts';
import { KeyManagementError } from './auth/keys/management.ts';
import { ProvisioningError } from './provisioning/errors.ts';
import { upgradeStore } from './runtime/upgrade.ts';
import { progressOnStderr } from './cli/progress.ts';
import { openExistingStore } from './cli/store.ts';

// A command loads what it needs when it runs (the server, the provisioning, the demo, each command's module), so a
// short command does not pay for loading the HTTP application: `keys list` starts in about half the time.

/** The help: each command's module keeps its own part beside its parsing, so the help loads them all. */
async function usage(): Promise<string> {
  const [operations, erase, prune, webhooks, tokens, consoleLink, discord, roblox] = await Promise.all([
    import('./cli/keys-and-backup.ts'),
    import('./cli/erase.ts'),
    import('./cli/prune.ts'),
    import('./cli/webhooks.ts'),
    import('./cli/tokens.ts'),
    import('./cli/console-link.ts'),
    import('./cli/discord.ts'),
    import('./cli/roblox.ts'),
  ]);
  return `Usage: workspace-gateway <command> [options]

Commands:
  serve                 apply pending migrations, then serve HTTP
  migrate               apply pending migrations and exit
  migrate --status      list applied (with when) and pending migrations as JSON, change nothing;
                        exits 0 when none is pending, 1 when some are
  provision <file.json> [--create]
                        apply a provisioning document; prints created keys as JSON. A SQLite database
                        that does not exist is refused unless --create is given (every command but serve,
                        demo and migrate refuses one: check DATABASE_URL)
                        (provision, rebuild-totals and erase: progress on stderr once a run takes over 1 s)
  demo                  provision a demo workspace on the embedded database and serve it
  rebuild-totals        rebuild the activity totals from the shifts (all workspaces, or --workspace <id>);
                        prints a JSON result

${operations.OPERATIONS_USAGE}${erase.ERASE_USAGE}${prune.PRUNE_USAGE}
${webhooks.WEBHOOKS_USAGE}${tokens.TOKENS_USAGE}${consoleLink.CONSOLE_LINK_USAGE}${discord.DISCORD_USAGE}${roblox.ROBLOX_USAGE}
Options (override the environment):
  --port <n>            listen port (PORT, default 3000)
  --host <addr>         listen address (HOST, default 127.0.0.1)
  --database-url <url>  sqlite:<path>, sqlite::memory: or postgres://… (DATABASE_URL)
  --workspace <id>      rebuild-totals: only this workspace
  -h, --help            print this help
`;
}

async function serve(args: readonly string[]): Promise<number> {
  const { overrides } = parseCommand('serve', args);
  const { catchSignals, startServer } = await import('./server.ts');
  const signals = catchSignals();
  const config = loadConfig(process.env, overrides);
  const server = await startServer(config);
  const { logServeNotice } = await import('./cli/serve-notice.ts');
  await logServeNotice(server.store.db, server.app.log, config.databaseUrl);
  await signals.stopOn(server);
  return 0;
}

async function migrate(args: readonly string[]): Promise<number> {
  // `--status` is the one option without a value, so it is taken out before the strict parse of the others.
  const status = args.includes('--status');
  const { overrides } = parseCommand('migrate', args.filter((arg) => arg !== '--status'));
  const config = loadConfig(process.env, overrides);
  const store = openStore(config.databaseUrl);
  try {
    if (status) {
      const { migrationStatus } = await import('./db/migrate.ts');
      const result = await migrationStatus(store);
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return result.pending.length === 0 ? 0 : 1;
    }
    const { applied } = await upgradeStore(store);
    process.stdout.write(`${JSON.stringify({ applied }, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function provision(args: readonly string[]): Promise<number> {
  // `--create` takes no value, so it is taken out before the strict parse of the others (as `migrate --status`).
  const create = args.includes('--create');
  const { positional: file, overrides } = parseCommand('provision', args.filter((arg) => arg !== '--create'), {
    positional: { name: 'file', kind: text },
  });
  const config = loadConfig(process.env, overrides);
  const store = openExistingStore(config.databaseUrl, overrides, { create, createOption: '--create' });
  try {
    await upgradeStore(store);
    const { applyProvisioningFile } = await import('./provisioning/apply.ts');
    const progress = progressOnStderr('provision');
    const result = await applyProvisioningFile(store.db, file, systemClock, progress.report).finally(progress.stop);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function demo(args: readonly string[]): Promise<number> {
  const { overrides } = parseCommand('demo', args);
  const { runDemo } = await import('./cli/demo.ts');
  return runDemo(overrides);
}

async function rebuildTotalsCommand(args: readonly string[]): Promise<number> {
  const { values, overrides } = parseCommand('rebuild-totals', args, { options: { workspace: optional(uuid) } });
  const workspaceId = values.workspace;
  const config = loadConfig(process.env, overrides);
  const store = openExistingStore(config.databaseUrl, overrides);
  try {
    await upgradeStore(store);
    const { rebuildTotals, workspaceExists } = await import('./features/activity/totals/service.ts');
    if (workspaceId !== undefined && !(await workspaceExists(store.db, workspaceId))) {
      throw new UsageError(`no workspace with id ${workspaceId}`);
    }
    const progress = progressOnStderr('rebuild-totals');
    const results = await rebuildTotals({ db: store.db, write: (job) => store.write(job) }, workspaceId, progress.report).finally(
      progress.stop,
    );
    process.stdout.write(`${JSON.stringify({ workspaces: results }, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

type Command = (args: readonly string[]) => Promise<number>;

/**
 * Each command, loaded when it runs. A command parses the arguments after its name itself (`parseCommand`),
 * before it opens anything.
 */
const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map<string, () => Promise<Command>>([
  ['serve', async () => serve],
  ['migrate', async () => migrate],
  ['provision', async () => provision],
  ['demo', async () => demo],
  ['rebuild-totals', async () => rebuildTotalsCommand],
  ['keys', async () => (await import('./cli/keys-and-backup.ts')).keys],
  ['backup', async () => (await import('./cli/keys-and-backup.ts')).backup],
  ['erase', async () => (await import('./cli/erase.ts')).erase],
  ['webhooks', async () => (await import('./cli/webhooks.ts')).runWebhooksCommand],
  ['tokens', async () => (await import('./cli/tokens.ts')).tokens],
  ['console-link', async () => (await import('./cli/console-link.ts')).consoleLink],
  ['prune', async () => (await import('./cli/prune.ts')).prune],
  ['discord', async () => (await import('./cli/discord.ts')).runDiscordCommand],
  ['roblox', async () => (await import('./cli/roblox.ts')).runRobloxCommand],
]);

/** `--help` or `-h` anywhere (before a `--`), whatever else the arguments hold. */
function asksForHelp(argv: readonly string[]): boolean {
  const options = { help: { type: 'boolean', short: 'h' } } as const;
  return parseArgs({ args: [...argv], options, strict: false, allowPositionals: true }).values.help === true;
}

function fail(message: string): number {
  process.stderr.write(`workspace-gateway: ${message}\n`);
  return 1;
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const [command, ...args] = argv;
    if (command === 'help' || asksForHelp(argv)) {
      process.stdout.write(await usage());
      return 0;
    }
    if (command === undefined) {
      process.stdout.write(await usage());
      return 1;
    }
    const load = COMMANDS.get(command);
    if (load === undefined) {
      throw new UsageError(
        command.startsWith('-') ? `the command comes first, then its options (got ${command})` : `unknown command "${command}"`,
      );
    }
    const run = await load();
    return await run(args);
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\n\n${await usage()}`);
    if (error instanceof ConfigError) return fail(`invalid configuration: ${error.message}`);
    if (error instanceof KeyManagementError || error instanceof BackupError) return fail(error.message);
    if (error instanceof ProvisioningError) {
      const lines = error.issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n');
      return fail(`invalid provisioning document, nothing was changed:\n${lines}`);
    }
    return fail(error instanceof Error ? error.message : String(error));
  }
}
