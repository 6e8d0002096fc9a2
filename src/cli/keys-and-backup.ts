import { ENVIRONMENTS } from '../shared/actor.ts';
import { optional, parseCommand, repeated, required, UsageError } from './args.ts';
import { oneOf, text, uuid, wholeNumber } from './values.ts';
import { systemClock } from '../shared/clock.ts';
import { loadConfig, type ConfigOverrides } from '../shared/config.ts';
import { backupSqlite } from '../db/backup.ts';
import { openExistingStore, refuseMissingDatabase } from './store.ts';
import { upgradeStore } from '../runtime/upgrade.ts';
import { createKeyManagement, DEFAULT_GRACE_SECONDS } from '../auth/keys/management.ts';

export const OPERATIONS_USAGE = `  keys create --application <id> --environment test|live [--scope <scope>]...
                        create an API key; prints it with its secret (shown once). Scopes: activity:write,
                        activity:read, staff:read, staff:write, applications:read, applications:write,
                        console:link (repeat --scope or separate with commas; default: all of them)
  keys list [--application <id>]
                        list API keys (never their secrets or hashes)
  keys revoke <keyId>   revoke a key at once
  keys rotate <keyId> [--grace-seconds <n>]
                        a new key with the same application, environment and scopes; the old one keeps
                        working for the grace period (default ${DEFAULT_GRACE_SECONDS} s = 24 h), then expires
  backup <file>         consistent online copy of a SQLite database into a new file (never overwrites);
                        on PostgreSQL, use pg_dump
`;

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

const KEY_ID = { name: 'key id', kind: uuid };

type KeyManagement = ReturnType<typeof createKeyManagement>;

/** The key operation the arguments after `keys` name, checked before anything is opened. */
function keyOperation(args: readonly string[]): { overrides: ConfigOverrides; run: (m: KeyManagement) => Promise<unknown> } {
  const [action, ...rest] = args;
  switch (action) {
    case 'create': {
      const { values, overrides } = parseCommand('keys create', rest, {
        options: { application: required(uuid), environment: required(oneOf(ENVIRONMENTS)), scope: repeated(text) },
      });
      const scopes = values.scope.flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '');
      return { overrides, run: (m) => m.create({ applicationId: values.application, environment: values.environment, scopes }) };
    }
    case 'list': {
      const { values, overrides } = parseCommand('keys list', rest, { options: { application: optional(uuid) } });
      const applicationId = values.application;
      return { overrides, run: async (m) => ({ keys: await m.list(applicationId === undefined ? {} : { applicationId }) }) };
    }
    case 'revoke': {
      const { positional: keyId, overrides } = parseCommand('keys revoke', rest, { positional: KEY_ID });
      return { overrides, run: (m) => m.revoke(keyId) };
    }
    case 'rotate': {
      const { positional: keyId, values, overrides } = parseCommand('keys rotate', rest, {
        positional: KEY_ID,
        options: { 'grace-seconds': optional(wholeNumber()) },
      });
      return { overrides, run: (m) => m.rotate(keyId, values['grace-seconds'] ?? DEFAULT_GRACE_SECONDS) };
    }
    default:
      throw new UsageError(
        action === undefined || action.startsWith('-')
          ? 'keys needs an action: create, list, revoke or rotate'
          : `unknown keys action "${action}"`,
      );
  }
}

/** `keys create|list|revoke|rotate`: runs on the configured database (migrated first), prints JSON. */
export async function keys(args: readonly string[]): Promise<number> {
  const { overrides, run } = keyOperation(args);
  const config = loadConfig(process.env, overrides);
  const store = openExistingStore(config.databaseUrl, overrides);
  try {
    await upgradeStore(store);
    print(await run(createKeyManagement({ db: store.db, clock: systemClock })));
    return 0;
  } finally {
    await store.close();
  }
}

/** `backup <file>`: a consistent copy of the SQLite database (PostgreSQL: a pointer to pg_dump, exit 1). */
export async function backup(args: readonly string[]): Promise<number> {
  const { positional: file, overrides } = parseCommand('backup', args, { positional: { name: 'target file', kind: text } });
  const config = loadConfig(process.env, overrides);
  refuseMissingDatabase(config.databaseUrl, overrides);
  print(await backupSqlite(config.databaseUrl, file));
  return 0;
}
