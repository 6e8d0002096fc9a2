import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this file whose package.json is workspace-gateway's. */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === 'workspace-gateway') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the workspace-gateway repository root');
    dir = parent;
  }
}

export const REPO_ROOT = findRoot();
export const CACHE_DIR = join(REPO_ROOT, 'bench', '.cache');
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');
export const BENCHMARKS_DOC = join(REPO_ROOT, 'docs', 'BENCHMARKS.md');
export const SERVER_BIN = join(REPO_ROOT, 'bin', 'workspace-gateway.js');
/** The event-loop probe the server under test is started with (see event-loop-probe.ts). */
export const EVENT_LOOP_PROBE = join(dirname(fileURLToPath(import.meta.url)), 'event-loop-probe.ts');
/** The coverage probe `npm run bench:trace` starts the server with (see coverage-probe.ts). */
export const COVERAGE_PROBE = join(dirname(fileURLToPath(import.meta.url)), 'coverage-probe.ts');
