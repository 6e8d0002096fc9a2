import { UsageError } from './cli-args.ts';
import { systemClock } from './clock.ts';
import { loadConfig, type ConfigOverrides } from './config.ts';
import { backupSqlite } from './db/backup.ts';
import { openStore } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createKeyManagement, DEFAULT_GRACE_SECONDS } from './keys/management.ts';

export const OPERATIONS_USAGE = `  keys create --application <id> --environment test|live [--scope <scope>]...
                        create an API key; prints it with its secret (shown once). Scopes: activity:write,
                        activity:read, staff:read (repeat --scope or separate with commas; default: all three)
  keys list [--application <id>]
                        list API keys (never their secrets or hashes)
  keys revoke <keyId>   revoke a key at once
  keys rotate <keyId> [--grace-seconds <n>]
                        a new key with the same application, environment and scopes; the old one keeps
                        working for the grace period (default ${DEFAULT_GRACE_SECONDS} s = 24 h), then expires
  backup <file>         consistent online copy of a SQLite database into a new file (never overwrites);
                        on PostgreSQL, use pg_dump
`;

type Options = Readonly<Record<string, readonly string[]>>;

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The one value of an option given at most once. */
function single(options: Options, name: string): string | undefined {
  const values = options[name];
  if (values && values.length > 1) throw new UsageError(`--${name} is given more than once`);
  return values?.[0];
}

function required(options: Options, name: string, command: string): string {
  const value = single(options, name);
  if (value === undefined) throw new UsageError(`${command} needs --${name}`);
  return value;
}

function allowOnly(options: Options, allowed: readonly string[], command: string): void {
  for (const name of Object.keys(options)) {
    if (!allowed.includes(name)) throw new UsageError(`${command} takes no --${name}`);
  }
}

function onePositional(positionals: readonly string[], what: string, command: string): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(`${command} needs exactly one ${what}`);
  return positionals[0];
}

function graceSeconds(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_GRACE_SECONDS;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--grace-seconds must be a whole number of seconds, got "${raw}"`);
  return Number(raw);
}

/** `keys create|list|revoke|rotate`: runs on the configured database (migrated first), prints JSON. */
export async function keys(
  positionals: readonly string[],
  options: Options,
  overrides: ConfigOverrides,
): Promise<number> {
  const [action, ...rest] = positionals;
  const config = loadConfig(process.env, overrides);
  // Arguments are checked before the database is opened.
  let run: (management: ReturnType<typeof createKeyManagement>) => Promise<unknown>;
  switch (action) {
    case 'create': {
      allowOnly(options, ['application', 'environment', 'scope'], 'keys create');
      if (rest.length > 0) throw new UsageError('keys create takes no positional arguments');
      const applicationId = required(options, 'application', 'keys create');
      const environment = required(options, 'environment', 'keys create');
      const scopes = (options.scope ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '');
      run = (m) => m.create({ applicationId, environment, scopes });
      break;
    }
    case 'list': {
      allowOnly(options, ['application'], 'keys list');
      if (rest.length > 0) throw new UsageError('keys list takes no positional arguments');
      const applicationId = single(options, 'application');
      run = async (m) => ({ keys: await m.list(applicationId === undefined ? {} : { applicationId }) });
      break;
    }
    case 'revoke': {
      allowOnly(options, [], 'keys revoke');
      const keyId = onePositional(rest, 'key id', 'keys revoke');
      run = (m) => m.revoke(keyId);
      break;
    }
    case 'rotate': {
      allowOnly(options, ['grace-seconds'], 'keys rotate');
      const keyId = onePositional(rest, 'key id', 'keys rotate');
      const grace = graceSeconds(single(options, 'grace-seconds'));
      run = (m) => m.rotate(keyId, grace);
      break;
    }
    default:
      throw new UsageError(
        action === undefined ? 'keys needs an action: create, list, revoke or rotate' : `unknown keys action "${action}"`,
      );
  }
  const store = openStore(config.databaseUrl);
  try {
    await migrateToLatest(store);
    print(await run(createKeyManagement({ db: store.db, clock: systemClock })));
    return 0;
  } finally {
    await store.close();
  }
}

/** `backup <file>`: a consistent copy of the SQLite database (PostgreSQL: a pointer to pg_dump, exit 1). */
export async function backup(positionals: readonly string[], options: Options, overrides: ConfigOverrides): Promise<number> {
  allowOnly(options, [], 'backup');
  const file = onePositional(positionals, 'target file', 'backup');
  const config = loadConfig(process.env, overrides);
  print(await backupSqlite(config.databaseUrl, file));
  return 0;
}
