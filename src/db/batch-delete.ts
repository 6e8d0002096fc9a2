/**
 * A batch of a retention prune's deletions (docs/OPERATING.md, "Retention"): one batch of a table's records older
 * than a cutoff, oldest first, read through the index on the age it is pruned by. On PostgreSQL a batch skips the
 * rows another instance's batch is deleting (`for update skip locked`, see skipLocked), so instances pruning at
 * once neither wait on nor deadlock with each other; on SQLite one process writes.
 */
import { sql, type RawBuilder } from 'kysely';
import { dialectOf } from './dialect.ts';
import type { Executor } from './types.ts';

/**
 * Runs a batch; on PostgreSQL in a transaction of its own whose plans neither sort, scan whole tables nor hash
 * or merge joins, so the batch walks the age index in order and probes each row's children or parent by index,
 * whatever the statistics say. They are stale while a prune runs: taken when every command still had its event
 * records, they priced the anti-join of a batch of commands at one row, and PostgreSQL hash-joined all commands
 * with all event records for every batch (docs/OPERATING.md, "Measured: pruning a million rows").
 */
export async function deleteInBatch(db: Executor, statement: RawBuilder<unknown>): Promise<number> {
  if (dialectOf(db) === 'sqlite') return Number((await statement.execute(db)).numAffectedRows ?? 0);
  const run = async (trx: Executor) => {
    await sql`select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin`.execute(trx);
    return Number((await statement.execute(trx)).numAffectedRows ?? 0);
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
