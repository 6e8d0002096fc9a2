/**
 * The TypeScript client packed as npm would publish it (`npm pack` in its folder, whose prepack step compiles the
 * client and its examples into that folder). Two test files pack it, possibly at once in two workers: each pack
 * holds a lock (a directory, made atomically) so neither reads files the other's compilation is writing.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ROOT } from '../../helpers/cli.ts';

const run = promisify(execFile);
export const CLIENT_DIR = join(ROOT, 'clients/typescript');
const LOCK = join(CLIENT_DIR, '.pack-lock');
/** Longer than a pack takes; a lock older than this is one a killed run left behind. */
const LOCK_WAIT_MS = 180_000;

/** Packs the client into `destination` and returns the tarball's path. */
export async function packClient(destination: string): Promise<string> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > deadline) rmSync(LOCK, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    const { stdout } = await run('npm', ['pack', '--pack-destination', destination, '--silent'], { cwd: CLIENT_DIR, timeout: 120_000 });
    return join(destination, stdout.trim().split('\n').at(-1) ?? '');
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
