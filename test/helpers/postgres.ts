import { createHash } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when a PostgreSQL server answers at POSTGRES_URL. */
export async function probePostgres(url = POSTGRES_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Connection URL whose sessions use `schema` as their search path. */
export function urlWithSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/**
 * The advisory lock PostgreSQL holds for an idempotency key while its request runs, as src/idempotency/records.ts
 * derives it: the first 64 bits of SHA-256 of `idempotency`, the scope and the key, one per line (signed, as
 * decimal text). Tests take it from another session to play a request in flight elsewhere.
 */
export function advisoryLockKey(scope: string, key: string): string {
  const hex = createHash('sha256').update(`idempotency\n${scope}\n${key}`).digest('hex').slice(0, 16);
  return BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();
}

/** The rows of one statement on a connection of its own (for tests that read a database a gateway process serves). */
export async function queryRows<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
