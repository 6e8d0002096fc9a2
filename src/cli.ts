import { parseArgs, UsageError } from './cli-args.ts';
import { systemClock } from './clock.ts';
import { backup, keys, OPERATIONS_USAGE } from './cli-operations.ts';
import { ConfigError, loadConfig, type ConfigOverrides } from './config.ts';
import { BackupError } from './db/backup.ts';
import { openStore } from './db/connect.ts';
import { runWebhooksCommand, WEBHOOKS_USAGE } from './cli-webhooks.ts';
import { runDemo } from './demo.ts';
import { KeyManagementError } from './keys/management.ts';
import { applyProvisioningFile, ProvisioningError } from './provisioning/apply.ts';
import { startServer, stopOnSignals } from './server.ts';
import { rebuildTotals, workspaceExists } from './features/totals/service.ts';
import { upgradeStore } from './upgrade.ts';

/** The command options each command takes (configuration flags aside); keys and backup judge theirs themselves. */
const KEY_OPTIONS = ['application', 'environment', 'scope', 'grace-seconds'];
const OPTIONS_OF: Readonly<Record<string, readonly string[]>> = {
  keys: KEY_OPTIONS,
  backup: KEY_OPTIONS,
  'rebuild-totals': ['workspace'],
};

const USAGE = `Usage: workspace-gateway <command> [options]

Commands:
  serve                 apply pending migrations, then serve HTTP
  migrate               apply pending migrations and exit
  provision <file.json> apply a provisioning document; prints created keys as JSON
  demo                  provision a demo workspace on the embedded database and serve it
  rebuild-totals        rebuild the activity totals from the shifts (all workspaces, or --workspace <id>);
                        prints a JSON result

${OPERATIONS_USAGE}
${WEBHOOKS_USAGE}
Options (override the environment):
  --port <n>            listen port (PORT, default 3000)
  --host <addr>         listen address (HOST, default 127.0.0.1)
  --database-url <url>  sqlite:<path>, sqlite::memory: or postgres://… (DATABASE_URL)
  --workspace <id>      rebuild-totals: only this workspace
`;

async function serve(overrides: ConfigOverrides): Promise<number> {
  const server = await startServer(loadConfig(process.env, overrides));
  await stopOnSignals(server);
  return 0;
}

async function migrate(overrides: ConfigOverrides): Promise<number> {
  const config = loadConfig(process.env, overrides);
  const store = openStore(config.databaseUrl);
  try {
    const { applied } = await upgradeStore(store);
    process.stdout.write(`${JSON.stringify({ applied })}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function provision(file: string | undefined, overrides: ConfigOverrides): Promise<number> {
  if (!file) throw new UsageError('provision needs a file: workspace-gateway provision <file.json>');
  const config = loadConfig(process.env, overrides);
  const store = openStore(config.databaseUrl);
  try {
    await upgradeStore(store);
    const result = await applyProvisioningFile(store.db, file, systemClock);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function rebuildTotalsCommand(workspaceId: string | undefined, overrides: ConfigOverrides): Promise<number> {
  const config = loadConfig(process.env, overrides);
  const store = openStore(config.databaseUrl);
  try {
    await upgradeStore(store);
    if (workspaceId !== undefined && !(await workspaceExists(store.db, workspaceId))) {
      throw new UsageError(`no workspace with id ${workspaceId}`);
    }
    const results = await rebuildTotals({ db: store.db, write: (job) => store.write(job) }, workspaceId);
    process.stdout.write(`${JSON.stringify({ workspaces: results })}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

function fail(message: string): number {
  process.stderr.write(`workspace-gateway: ${message}\n`);
  return 1;
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    // Subcommands with options of their own parse them themselves.
    if (argv[0] === 'webhooks') return await runWebhooksCommand(argv.slice(1));
    const { command, positionals, overrides, options } = parseArgs(argv);
    const allowed = OPTIONS_OF[command ?? ''] ?? [];
    const stray = Object.keys(options).find((name) => !allowed.includes(name));
    if (stray !== undefined) {
      throw new UsageError(`${command ?? 'no command'} takes no --${stray}`);
    }
    switch (command) {
      case 'serve':
        return await serve(overrides);
      case 'migrate':
        return await migrate(overrides);
      case 'provision':
        return await provision(positionals[0], overrides);
      case 'demo':
        return await runDemo(overrides);
      case 'keys':
        return await keys(positionals, options, overrides);
      case 'backup':
        return await backup(positionals, options, overrides);
      case 'rebuild-totals':
        return await rebuildTotalsCommand(options.workspace?.[0], overrides);
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(USAGE);
        return command === undefined ? 1 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\n\n${USAGE}`);
    if (error instanceof ConfigError) return fail(`invalid configuration: ${error.message}`);
    if (error instanceof KeyManagementError || error instanceof BackupError) return fail(error.message);
    if (error instanceof ProvisioningError) {
      const lines = error.issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n');
      return fail(`invalid provisioning document, nothing was changed:\n${lines}`);
    }
    return fail(error instanceof Error ? error.message : String(error));
  }
}
