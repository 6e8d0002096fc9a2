import { sql } from 'kysely';
import type { Executor } from '../../db/types.ts';

/** The smallest round trip to the database: it answers, or the readiness check says it does not. */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
