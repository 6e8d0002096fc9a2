/**
 * Rows written as a document says (provisioning): inserted, or on a conflict overwritten or left as they are, in
 * batches. Each table's own module declares how its rows meet the rows already there (an `Upsert`), so the
 * statement is written once here and every table keeps its one owner (docs/DATA.md).
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database, Executor } from './types.ts';

type Column<T extends keyof Database> = keyof Database[T] & string;

/** How a document's rows of one table meet the rows already there. */
export interface Upsert<T extends keyof Database> {
  readonly table: T;
  /** The unique columns that identify an existing row. */
  readonly conflict: readonly Column<T>[];
  /** Columns the document overwrites on an existing row; none: an existing row is left as it is. */
  readonly update: readonly Column<T>[];
  /** Overwrite only when one of these differs, so re-applying the same document changes no row. */
  readonly onlyWhenChanged?: readonly Column<T>[];
  /** Overwrite only an existing row whose `column` holds `equals`; any other is left as it is. */
  readonly onlyWhere?: { readonly column: Column<T>; readonly equals: string };
}

// Rows per multi-row statement: at most 15 columns each, well under both stores' parameter limits.
const BATCH = 100;

export function batches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(rows.slice(i, i + BATCH));
  return out;
}

// The statement is the same for every table; checked against the table's own columns by `Upsert<T>` above.
type AnyTableDatabase = Record<string, Record<string, unknown>>;

/**
 * Inserts the rows (one batch); on a conflict, overwrites the `update` columns (when one of `onlyWhenChanged`
 * differs, if given) or leaves the existing row. Returns how many rows were inserted or changed.
 */
export async function upsertBatch<T extends keyof Database>(
  db: Executor,
  upsert: Upsert<T>,
  rows: readonly Insertable<Database[T]>[],
): Promise<number> {
  const table: string = upsert.table;
  const conflict: readonly string[] = upsert.conflict;
  const update: readonly string[] = upsert.update;
  const onlyWhenChanged: readonly string[] | undefined = upsert.onlyWhenChanged;
  const onlyWhere: { readonly column: string; readonly equals: string } | undefined = upsert.onlyWhere;
  const loose = db as unknown as Kysely<AnyTableDatabase>;
  const result = await loose
    .insertInto(table)
    .values(rows as Record<string, unknown>[])
    .onConflict((oc) => {
      const target = oc.columns(conflict);
      if (update.length === 0) return target.doNothing();
      const set = target.doUpdateSet((eb) => Object.fromEntries(update.map((c) => [c, eb.ref(`excluded.${c}`)])));
      if (!onlyWhenChanged && !onlyWhere) return set;
      return set.where((eb) =>
        eb.and([
          ...(onlyWhenChanged
            ? [eb.or(onlyWhenChanged.map((c) => eb(eb.ref(`${table}.${c}`), 'is distinct from', eb.ref(`excluded.${c}`))))]
            : []),
          ...(onlyWhere ? [eb(eb.ref(`${table}.${onlyWhere.column}`), '=', onlyWhere.equals)] : []),
        ]),
      );
    })
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Upserts the rows in batches (upsertBatch); returns how many rows were inserted or changed. */
export async function upsertRows<T extends keyof Database>(
  db: Executor,
  upsert: Upsert<T>,
  rows: readonly Insertable<Database[T]>[],
): Promise<number> {
  let changed = 0;
  for (const batch of batches(rows)) changed += await upsertBatch(db, upsert, batch);
  return changed;
}
