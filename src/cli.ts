import { parseArgs, UsageError } from './cli-args.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, type ConfigOverrides } from './config.js';
import { openStore } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { runDemo } from './demo.js';
import { applyProvisioningFile, ProvisioningError } from './provisioning/apply.js';
import { startServer, stopOnSignals } from './server.js';

const USAGE = `Usage: workspace-gateway <command> [options]

Commands:
  serve                 apply pending migrations, then serve HTTP
  migrate               apply pending migrations and exit
  provision <file.json> apply a provisioning document; prints created keys as JSON
  demo                  provision a demo workspace on the embedded database and serve it

Options (override the environment):
  --port <n>            listen port (PORT, default 3000)
  --host <addr>         listen address (HOST, default 127.0.0.1)
  --database-url <url>  sqlite:<path>, sqlite::memory: or postgres://… (DATABASE_URL)
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
    const { applied } = await migrateToLatest(store);
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
    await migrateToLatest(store);
    const result = await applyProvisioningFile(store.db, file, systemClock);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
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
    const { command, positionals, overrides } = parseArgs(argv);
    switch (command) {
      case 'serve':
        return await serve(overrides);
      case 'migrate':
        return await migrate(overrides);
      case 'provision':
        return await provision(positionals[0], overrides);
      case 'demo':
        return await runDemo(overrides);
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
    if (error instanceof ProvisioningError) {
      const lines = error.issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n');
      return fail(`invalid provisioning document, nothing was changed:\n${lines}`);
    }
    return fail(error instanceof Error ? error.message : String(error));
  }
}
