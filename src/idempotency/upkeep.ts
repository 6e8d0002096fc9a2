/**
 * The statements other modules run on the `idempotency_records` table, which this module owns (docs/DATA.md): an
 * erasure's search for and rewrite of stored responses.
 */
import type { Executor } from '../db/types.ts';
import { containing, type StoredCopy } from '../shared/stored-copy.ts';

/** A stored response's key. */
export interface RecordKey {
  readonly scope: string;
  readonly key: string;
}

/** Stored idempotent responses whose body mentions one of `needles`. */
export async function findResponseCopies(db: Executor, needles: readonly string[]): Promise<Array<StoredCopy<RecordKey>>> {
  const rows = await db
    .selectFrom('idempotency_records')
    .select(['scope', 'key', 'response_body'])
    .where((eb) => eb.or(needles.map((needle) => eb('response_body', 'like', containing(needle)))))
    .orderBy('scope')
    .orderBy('key')
    .execute();
  return rows.flatMap((row) =>
    row.response_body === null ? [] : [{ key: { scope: row.scope, key: row.key }, text: row.response_body }],
  );
}

export async function setResponseBody(db: Executor, record: RecordKey, body: string): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({ response_body: body })
    .where('scope', '=', record.scope)
    .where('key', '=', record.key)
    .execute();
}
