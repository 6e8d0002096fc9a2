import type { ConfigOverrides } from './config.ts';

export interface ParsedArgs {
  readonly command: string | undefined;
  readonly positionals: readonly string[];
  readonly overrides: ConfigOverrides;
  /** Options of a command (`keys`), by name without dashes; repeatable ones collect every value given. */
  readonly options: Readonly<Record<string, readonly string[]>>;
}

const FLAG_NAMES: Record<string, keyof ConfigOverrides> = {
  '--port': 'port',
  '--host': 'host',
  '--database-url': 'databaseUrl',
};

/** Options that belong to a command rather than to the configuration. */
const COMMAND_OPTIONS = new Set(['--application', '--environment', '--scope', '--grace-seconds', '--workspace']);

export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * `<command> [positionals] [--port N] [--host H] [--database-url URL] [command options]`, also `--flag=value`.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const overrides: ConfigOverrides = {};
  const options: Record<string, string[]> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      positionals.push('help');
      continue;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const field = FLAG_NAMES[name];
    if (!field && !COMMAND_OPTIONS.has(name)) throw new UsageError(`unknown option ${name}`);
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i += 1;
    }
    if (value === undefined || value === '') throw new UsageError(`option ${name} needs a value`);
    if (field) overrides[field] = value;
    else (options[name.slice(2)] ??= []).push(value);
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, overrides, options };
}
