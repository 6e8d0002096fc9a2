import type { Insertable, Kysely } from 'kysely';
import type { Database, Executor } from '../db/types.ts';

/** Tables provisioning writes in batches from a document. */
type DocumentTable =
  | 'workspaces'
  | 'departments'
  | 'members'
  | 'staff'
  | 'inactivity_notices'
  | 'applications'
  | 'application_forms'
  | 'submissions'
  | 'shifts';
type Column<T extends DocumentTable> = keyof Database[T] & string;

/** How the document's rows of one table meet the rows already there. */
export interface Upsert<T extends DocumentTable> {
  readonly table: T;
  /** The unique columns that identify an existing row. */
  readonly conflict: readonly Column<T>[];
  /** Columns the document overwrites on an existing row; none: an existing row is left as it is. */
  readonly update: readonly Column<T>[];
  /** Overwrite only when one of these differs, so re-applying the same document changes no row. */
  readonly onlyWhenChanged?: readonly Column<T>[];
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
 * Inserts the rows in batches; on a conflict, overwrites the `update` columns (when one of `onlyWhenChanged`
 * differs, if given) or leaves the existing row. Returns how many rows were inserted or changed.
 */
export async function upsertRows<T extends DocumentTable>(
  db: Executor,
  upsert: Upsert<T>,
  rows: readonly Insertable<Database[T]>[],
): Promise<number> {
  const table: string = upsert.table;
  const conflict: readonly string[] = upsert.conflict;
  const update: readonly string[] = upsert.update;
  const onlyWhenChanged: readonly string[] | undefined = upsert.onlyWhenChanged;
  const loose = db as unknown as Kysely<AnyTableDatabase>;
  let changed = 0;
  for (const batch of batches(rows)) {
    const result = await loose
      .insertInto(table)
      .values(batch as Record<string, unknown>[])
      .onConflict((oc) => {
        const target = oc.columns(conflict);
        if (update.length === 0) return target.doNothing();
        const set = target.doUpdateSet((eb) => Object.fromEntries(update.map((c) => [c, eb.ref(`excluded.${c}`)])));
        if (!onlyWhenChanged) return set;
        return set.where((eb) =>
          eb.or(onlyWhenChanged.map((c) => eb(eb.ref(`${table}.${c}`), 'is distinct from', eb.ref(`excluded.${c}`)))),
        );
      })
      .executeTakeFirst();
    changed += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return changed;
}
