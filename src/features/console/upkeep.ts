/**
 * The statements other modules run on the `console_sign_in_codes` table, which this module owns (docs/DATA.md):
 * retention's prune.
 */
import { sql } from 'kysely';
import { deleteInBatch } from '../../db/batch-delete.ts';
import { skipLocked } from '../../db/dialect.ts';
import type { Executor } from '../../db/types.ts';

/** Console sign-in codes that expired before `cutoff`, used or not (a code is useless once expired). */
export function deleteSignInCodesBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleteInBatch(
    db,
    sql`delete from console_sign_in_codes where code_hash in (
  select c.code_hash from console_sign_in_codes as c where c.expires_at < ${cutoff} order by c.expires_at limit ${limit}${skipLocked(db)})`,
  );
}
