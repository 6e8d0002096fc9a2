import { POSTGRES_URL, probePostgres } from './postgres.ts';

export default async function globalSetup(): Promise<void> {
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
