import { existsSync, linkSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBase62 } from '../shared/ids.ts';
import { sqliteFilename } from './connect.ts';
import { SqliteDatabase } from './sqlite-driver.ts';

/** A backup that cannot be taken; nothing was written. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupResult {
  readonly file: string;
  readonly bytes: number;
  readonly pages: number;
  /** `PRAGMA integrity_check` of the copy. */
  readonly integrity: 'ok';
}

/** Pages copied per step after the first: large, so that a copy restarted by a concurrent write finishes next step. */
const PAGES_PER_STEP = 1_000_000;

/**
 * A consistent copy of the SQLite database at `url` in `target`, taken online with SQLite's backup API: the
 * serving process keeps reading and writing meanwhile (a write during the copy restarts it; the copy is always
 * of one committed state). The copy is written beside the target under a temporary name, checked, and only then
 * put in place; an existing target is never overwritten.
 */
export async function backupSqlite(url: string, target: string): Promise<BackupResult> {
  if (!url.startsWith('sqlite:')) {
    throw new BackupError(
      'backup copies SQLite databases only; back up PostgreSQL with its own tools, e.g. ' +
        'pg_dump --format=custom --file=gateway.dump "$DATABASE_URL"',
    );
  }
  const source = sqliteFilename(url);
  if (source === ':memory:') throw new BackupError('an in-memory database has nothing to back up');
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  const destination = resolve(target);
  if (resolve(source) === destination) throw new BackupError('the backup file must not be the database itself');
  if (existsSync(destination)) throw new BackupError(`${target} exists; backup never overwrites a file`);
  if (!existsSync(dirname(destination))) throw new BackupError(`the folder of ${target} does not exist`);

  const partial = join(dirname(destination), `.${basename(destination)}.${randomBase62(8)}.partial`);
  const database = new SqliteDatabase(source, { readonly: true, fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    const { totalPages } = await database.backup(partial, { progress: () => PAGES_PER_STEP });
    const copy = new SqliteDatabase(partial);
    let integrity: unknown;
    try {
      // The copy stands alone: no write-ahead log beside it.
      copy.pragma('journal_mode = DELETE');
      integrity = copy.pragma('integrity_check', { simple: true });
    } finally {
      copy.close();
    }
    if (integrity !== 'ok') throw new BackupError(`the copy failed its integrity check: ${String(integrity)}`);
    // link() fails when the target exists (appeared meanwhile): never overwrite, even in a race.
    try {
      linkSync(partial, destination);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new BackupError(code === 'EEXIST' ? `${target} exists; backup never overwrites a file` : `cannot write ${target}: ${code ?? String(error)}`);
    }
    return { file: destination, bytes: statSync(destination).size, pages: totalPages, integrity: 'ok' };
  } finally {
    database.close();
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
  }
}
