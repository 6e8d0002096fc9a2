import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { POSTGRES_URL, probePostgres } from './postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function globalSetup(): Promise<void> {
  // The CLI tests run the built program, exactly as `npx workspace-gateway` does.
  // tsc emits even when it reports type errors; those fail `npm run typecheck`, not the tests.
  try {
    execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch {
    console.error('warning: the build reported type errors; the CLI tests run what it emitted');
  }

  const available = await probePostgres();
  if (available) return;
  const banner = [
    '',
    '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
    `!!  PostgreSQL is not reachable at ${POSTGRES_URL}`,
    '!!  The PostgreSQL suite is NOT running; only SQLite is tested.',
    '!!  Set TEST_DATABASE_URL or start a server to test both stores.',
    '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
    '',
  ].join('\n');
  console.error(banner);
  if (process.env.CI === 'true') {
    throw new Error(`CI requires PostgreSQL for the test suite, and none answers at ${POSTGRES_URL}.`);
  }
}
