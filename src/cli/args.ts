import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { ConfigOverrides } from '../shared/config.ts';
import { text, type Kind } from './values.ts';

/** Arguments a command cannot run with: the message names the argument, and the usage follows it. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Arity = 'optional' | 'required' | 'repeated';

/** A `--name <value>` option: the kind of its value, and whether it may be left out or given several times. */
export interface Option<T, A extends Arity = Arity> {
  readonly kind: Kind<T>;
  readonly arity: A;
}

export const optional = <T>(kind: Kind<T>): Option<T, 'optional'> => ({ kind, arity: 'optional' });
export const required = <T>(kind: Kind<T>): Option<T, 'required'> => ({ kind, arity: 'required' });
/** Given any number of times (`--scope a --scope b`), collected in order. */
export const repeated = <T>(kind: Kind<T>): Option<T, 'repeated'> => ({ kind, arity: 'repeated' });

type Options = Readonly<Record<string, Option<unknown>>>;

type ValueOf<O> =
  O extends Option<infer T, infer A> ? (A extends 'repeated' ? T[] : A extends 'required' ? T : T | undefined) : never;

export type Values<O extends Options> = { readonly [K in keyof O]: ValueOf<O[K]> };

/** The one argument after the command's words (`keys revoke <keyId>`): what it is called in messages, and its kind. */
export interface Positional<T> {
  readonly name: string;
  readonly kind: Kind<T>;
}

export interface CommandSpec<O extends Options, P> {
  readonly options?: O;
  readonly positional?: Positional<P>;
}

export interface ParsedCommand<O extends Options, P> {
  readonly values: Values<O>;
  /** The positional argument, checked; `undefined` for a command that takes none. */
  readonly positional: P;
  /** `--port`, `--host` and `--database-url`, which every command takes; `loadConfig` judges their values. */
  readonly overrides: ConfigOverrides;
}

const CONFIG_OPTIONS = {
  port: optional(text),
  host: optional(text),
  'database-url': optional(text),
} as const satisfies Options;

function check<T>(kind: Kind<T>, raw: string, label: string): T {
  const value = kind.parse(raw);
  if (value === undefined) throw new UsageError(`${label} must be ${kind.description}, got "${raw}"`);
  return value;
}

/** Why strict parsing refused the arguments, told from the tokens of a lenient parse: the option it concerns. */
function refusal(command: string, args: string[], config: ParseArgsOptionsConfig, error: unknown): UsageError {
  const { tokens } = parseArgs({ args, options: config, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (!Object.hasOwn(config, token.name)) return new UsageError(`${command} takes no ${token.rawName}`);
    if (token.value === undefined) return new UsageError(`${token.rawName} needs a value`);
  }
  return new UsageError(error instanceof Error ? error.message : String(error));
}

/**
 * Parses the arguments after a command's words with `node:util` `parseArgs` in strict mode: only the command's
 * options and the configuration options, each value checked by its kind; a single-valued option given twice, an
 * empty value, a missing required option and a wrong number of positionals are refused with a `UsageError`.
 * `command` is how messages name the command (`keys create`).
 */
export function parseCommand<O extends Options = Record<never, never>, P = undefined>(
  command: string,
  args: readonly string[],
  spec: CommandSpec<O, P> = {},
): ParsedCommand<O, P> {
  const declared: Options = { ...CONFIG_OPTIONS, ...spec.options };
  const config: ParseArgsOptionsConfig = Object.fromEntries(
    Object.entries(declared).map(([name, option]) => [name, { type: 'string', multiple: option.arity === 'repeated' }]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: config, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    throw refusal(command, [...args], config, error);
  }

  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (token.value === '') throw new UsageError(`${token.rawName} needs a value`);
    if (seen.has(token.name) && declared[token.name]?.arity !== 'repeated') {
      throw new UsageError(`${token.rawName} is given more than once`);
    }
    seen.add(token.name);
  }

  const texts = (name: string): string[] =>
    [parsed.values[name]].flat().filter((value): value is string => typeof value === 'string');
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(spec.options ?? {})) {
    const flag = `--${name}`;
    const given = texts(name).map((raw) => check(option.kind, raw, flag));
    if (option.arity === 'repeated') values[name] = given;
    else if (given.length > 0) values[name] = given[0];
    else if (option.arity === 'required') {
      throw new UsageError(`${command} needs ${flag}: ${flag} must be ${option.kind.description}`);
    }
  }

  const { positionals } = parsed;
  const { positional } = spec;
  if (positional === undefined && positionals.length > 0) {
    throw new UsageError(`${command} takes no arguments, got "${positionals[0]}"`);
  }
  if (positional !== undefined && positionals.length !== 1) {
    throw new UsageError(`${command} needs exactly one ${positional.name}`);
  }
  return {
    values: values as Values<O>,
    positional: (positional === undefined ? undefined : check(positional.kind, positionals[0] ?? '', `the ${positional.name}`)) as P,
    overrides: { port: texts('port')[0], host: texts('host')[0], databaseUrl: texts('database-url')[0] },
  };
}
