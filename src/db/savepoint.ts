import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from './types.ts';

/**
 * One savepoint sequence for every write that must be undone alone inside a larger transaction (a job of the
 * group commit, an idempotent operation whose refusal is stored): open; then release on success, or roll back
 * to it and release on failure (or leave it to the transaction's end, see inSavepoint). The statements are
 * compiled once per name, since they run several times per write.
 */
export interface Savepoint {
  readonly open: CompiledQuery;
  readonly release: CompiledQuery;
  readonly rollback: CompiledQuery;
}

export function savepoint(name: string): Savepoint {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`savepoint name must be lowercase letters and underscores: ${name}`);
  return {
    open: CompiledQuery.raw(`savepoint ${name}`),
    release: CompiledQuery.raw(`release savepoint ${name}`),
    rollback: CompiledQuery.raw(`rollback to savepoint ${name}`),
  };
}

/** What a piece of work inside a savepoint came to: its value, or its error (its writes then undone). */
export type SavepointOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * Runs `work` inside `point` on the transaction `trx`; a failure undoes the work's writes only. With `release`
 * false the savepoint is left open, for the end of the transaction (COMMIT releases it, as does the release of a
 * savepoint opened before it): for the last savepoint of a transaction that ends soon after, where a release is a
 * round trip to PostgreSQL that changes nothing. A savepoint opened again under the same name must be released.
 */
export async function inSavepoint<T>(
  trx: Transaction<Database>,
  point: Savepoint,
  work: (trx: Transaction<Database>) => Promise<T>,
  { release = true }: { readonly release?: boolean } = {},
): Promise<SavepointOutcome<T>> {
  await trx.executeQuery(point.open);
  try {
    const value = await work(trx);
    if (release) await trx.executeQuery(point.release);
    return { ok: true, value };
  } catch (error) {
    await trx.executeQuery(point.rollback);
    if (release) await trx.executeQuery(point.release);
    return { ok: false, error };
  }
}
