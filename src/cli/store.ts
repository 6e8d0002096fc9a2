import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigOverrides } from '../shared/config.ts';
import { openStore, sqliteFilename, type Store } from '../db/connect.ts';

/** A command pointed at a SQLite file that does not exist: it was not run against the gateway's database. */
export class MissingDatabaseError extends Error {
  override name = 'MissingDatabaseError';
}

/** Where the database URL a command runs on came from, as its message tells the operator. */
function urlSource(overrides: ConfigOverrides, env: NodeJS.ProcessEnv): string {
  if (overrides.databaseUrl !== undefined) return '--database-url';
  if (env.DATABASE_URL !== undefined) return 'DATABASE_URL';
  return 'the default, DATABASE_URL is not set';
}

export interface OpenOptions {
  /** Make the SQLite file when it does not exist (`provision --create`); otherwise such a file is refused. */
  readonly create?: boolean;
  /** The option that makes one, named in the refusal (`provision`'s `--create`). */
  readonly createOption?: string;
}

/**
 * Opens the database of an operator command. A SQLite file that does not exist yet is refused, never made: a
 * command run without the service's `DATABASE_URL` (a shell without the unit's environment) would otherwise open
 * an empty database beside it, answer from it as if it were the gateway's and, for `provision`, fill it instead
 * (docs/OPERATING.md, "Commands"). Only `serve`, `demo`, `migrate` and `provision --create` make a new database.
 */
export function openExistingStore(
  databaseUrl: string,
  overrides: ConfigOverrides,
  options: OpenOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Store {
  refuseMissingDatabase(databaseUrl, overrides, options, env);
  return openStore(databaseUrl);
}

/** Throws MissingDatabaseError for a SQLite file that does not exist (unless `options.create`); see openExistingStore. */
export function refuseMissingDatabase(
  databaseUrl: string,
  overrides: ConfigOverrides,
  options: OpenOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (databaseUrl.startsWith('sqlite:') && options.create !== true) {
    const filename = sqliteFilename(databaseUrl);
    if (filename !== ':memory:' && !existsSync(filename)) {
      const create = options.createOption === undefined ? '' : `, or pass ${options.createOption} to make a new one there`;
      throw new MissingDatabaseError(
        `no database at ${resolve(filename)} (${databaseUrl}, from ${urlSource(overrides, env)}); ` +
          `point the command at the gateway's database with DATABASE_URL or --database-url, as the service's ` +
          `environment sets it${create}`,
      );
    }
  }
}
