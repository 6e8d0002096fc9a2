/**
 * Statements compiled once and run many times: the savepoint sequence of every write that may be undone alone,
 * and the few statements a request runs at every call whose text is composed of shared fragments (CompiledOnce).
 */
import { CompiledQuery, sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database, Executor } from './types.ts';

// ---------------------------------------------------------------------------------------------------------
// Savepoints
// ---------------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------------
// A statement compiled once
// ---------------------------------------------------------------------------------------------------------

/** Marks a named value of a CompiledOnce statement in the parameters Kysely compiles. */
class Term {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** The term of a CompiledOnce statement's value named `name`, as SQL of type T. */
export type NamedTerm<Values> = <T>(name: keyof Values & string) => RawBuilder<T>;

/** A statement's text on one store, and how a run's values become its parameters. */
interface Compiled<Values> {
  readonly sql: string;
  readonly parameters: (values: Values) => unknown[];
}

/**
 * A statement whose text is compiled once per store: `write` builds it from a term per named value (`term(name)`)
 * for the store `db` belongs to, and each run binds `values` where its text takes them. For the few statements a
 * request runs at every call whose text is composed of shared fragments (the rule is still written once):
 * composing and compiling that text, and finding its prepared statement by a string made anew, cost more than
 * SQLite spends running it.
 */
export class CompiledOnce<Values extends object, Row> {
  private readonly write: (term: NamedTerm<Values>, db: Executor) => RawBuilder<unknown>;
  // By the store's adapter: its text on each store this process opens.
  private readonly texts = new WeakMap<object, Compiled<Values>>();

  constructor(write: (term: NamedTerm<Values>, db: Executor) => RawBuilder<unknown>) {
    this.write = write;
  }

  /** Runs the statement with `values` on `db`; its rows. */
  async rows(db: Executor, values: Values): Promise<Row[]> {
    const { adapter } = db.getExecutor();
    let text = this.texts.get(adapter);
    if (text === undefined) {
      text = this.compile(db);
      this.texts.set(adapter, text);
    }
    return (await db.executeQuery<Row>(CompiledQuery.raw(text.sql, text.parameters(values)))).rows;
  }

  private compile(db: Executor): Compiled<Values> {
    const { sql: text, parameters } = this.write(<T>(name: string) => sql<T>`${new Term(name)}`, db).compile(db);
    // A value the fragments bind themselves (a constant) stays as it is.
    const take = parameters.map((parameter) =>
      parameter instanceof Term ? (values: Values) => values[parameter.name as keyof Values] : () => parameter,
    );
    return { sql: text, parameters: (values) => take.map((value) => value(values)) };
  }
}
