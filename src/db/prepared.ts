import { CompiledQuery, type Compilable, type Kysely, type QueryResult, type RawBuilder } from 'kysely';
import type { Database, Executor } from './types.ts';

/**
 * Queries built once and compiled once per dialect, then run with new values: building and compiling a Kysely
 * query costs about 20 µs, a large share of the hot paths (every authenticated request looks its key up).
 *
 *   const findKey = prepared<{ hash: string }, KeyRow>((db, p) =>
 *     db.selectFrom('api_keys').selectAll().where('key_hash', '=', p('hash')));
 *   const rows = await findKey.rows(executor, { hash });
 *
 * `p(name)` stands for a value given at run time. The builder is compiled twice with different stand-ins: both
 * compilations must give the same SQL, with each stand-in bound exactly once as a parameter and every other
 * parameter the same constant; a query that does not (a stand-in used as an array, say) is refused at its first
 * use rather than run with a value baked in.
 */

const PLACEHOLDER = Symbol('prepared placeholder');

/**
 * A store's prepared queries: each definition's compiled form for the store's dialect, and the texts of them all
 * (fixed text, so a server may keep its parsed form: see pg-dialect.ts, which names these on PostgreSQL). One per
 * store, reached through its dialect adapter (a store and its transactions share one; see connect.ts).
 */
export class StatementRegistry {
  readonly compiled = new Map<object, Compiled<never>>();
  private readonly fixed = new Set<string>();

  /** True when `sql` is the text of a prepared query this store has compiled. */
  isFixed(sql: string): boolean {
    return this.fixed.has(sql);
  }

  add(definition: object, compiled: Compiled<never>): void {
    this.compiled.set(definition, compiled);
    this.fixed.add(compiled.sql);
  }

  /** Counts `sql` among the fixed texts (see executeFixed). */
  fix(sql: string): void {
    this.fixed.add(sql);
  }
}

/** A dialect adapter that carries its store's registry (see connect.ts). */
interface RegistryCarrier {
  readonly statementRegistry?: StatementRegistry;
}

function registryOf(db: Executor): StatementRegistry | undefined {
  return (db.getExecutor().adapter as RegistryCarrier).statementRegistry;
}

/**
 * Runs an `sql` template as one of the store's fixed statements (on PostgreSQL, parsed once per connection under a
 * name), for a query built per call whose text depends only on its shape, never on its values, and that has few
 * shapes: each distinct text is kept for the store's lifetime.
 */
export function executeFixed<R>(db: Executor, query: RawBuilder<R>): Promise<QueryResult<R>> {
  const compiled = query.compile(db);
  registryOf(db)?.fix(compiled.sql);
  return db.executeQuery(compiled);
}

/** Gives a store's adapter its registry (called once, when the store's Kysely instance creates its adapter). */
export function attachRegistry<A extends object>(adapter: A, registry: StatementRegistry): A {
  return Object.assign(adapter, { statementRegistry: registry });
}

interface Placeholder {
  readonly [PLACEHOLDER]: string;
  readonly round: number;
}

function isPlaceholder(value: unknown): value is Placeholder {
  return typeof value === 'object' && value !== null && PLACEHOLDER in value;
}

type Binding<P> = { readonly param: keyof P } | { readonly constant: unknown };

interface Compiled<P> {
  readonly sql: string;
  readonly bindings: readonly Binding<P>[];
}

export type Param<P> = <K extends keyof P & string>(name: K) => P[K];

/** A statement's values, looked up by name, as an alternative to one plain object holding them all. */
export abstract class ParamSource<P> {
  /** Only types the source; never set. */
  declare readonly values?: P;
  /** The value of the placeholder `name`. */
  abstract get(name: PropertyKey): unknown;
}

/**
 * A statement's values drawn from several objects, a later one winning, for a statement whose placeholders come
 * from several sources. On the hot paths this is cheaper than one merged copy: V8 builds an object of that many
 * properties one transition at a time, which costs microseconds per call; here each value is looked up once.
 */
export class ParamLayers<P> extends ParamSource<P> {
  private readonly parts: readonly object[];
  private constructor(parts: readonly object[]) {
    super();
    this.parts = parts;
  }

  static of<T extends readonly object[]>(...parts: T): ParamLayers<Merged<T>> {
    return new ParamLayers<Merged<T>>(parts);
  }

  get(name: PropertyKey): unknown {
    for (let i = this.parts.length - 1; i >= 0; i -= 1) {
      const part = this.parts[i] as Record<PropertyKey, unknown>;
      if (name in part) return part[name];
    }
    return undefined;
  }
}

type Merged<T extends readonly object[]> = T extends readonly [infer Head, ...infer Rest extends readonly object[]]
  ? Head & Merged<Rest>
  : unknown;

/** A statement's values: one object, or a source of them. */
export type Params<P> = P | ParamSource<P>;

export interface Prepared<P, R> {
  /** The query with `params` bound, compiled for `db`'s dialect, to run elsewhere (see Store.writeSync). */
  compile(db: Executor, params: Params<P>): CompiledQuery<R>;
  /** Runs the query with `params` on `db` (a store or a transaction of it). */
  execute(db: Executor, params: Params<P>): Promise<QueryResult<R>>;
  /** The result rows. */
  rows(db: Executor, params: Params<P>): Promise<R[]>;
  /** The first result row, if any. */
  first(db: Executor, params: Params<P>): Promise<R | undefined>;
}

/** A query builder, or an `sql` template (for what the builders cannot say; it compiles against the store's dialect). */
export type Buildable<R> = Compilable<R> | RawBuilder<R>;

function isRaw<R>(query: Buildable<R>): query is RawBuilder<R> {
  return 'isRawBuilder' in query && query.isRawBuilder;
}

function compileWith<P, R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, p: Param<P>) => Buildable<R>,
  round: number,
): CompiledQuery<R> {
  const p = ((name: string) => ({ [PLACEHOLDER]: name, round }) as Placeholder) as unknown as Param<P>;
  const query = build(db, p);
  return isRaw(query) ? query.compile(db) : query.compile();
}

function bindingsOf<P>(first: CompiledQuery<unknown>, second: CompiledQuery<unknown>): Binding<P>[] {
  if (first.sql !== second.sql || first.parameters.length !== second.parameters.length) {
    throw new Error(`prepared query does not compile to fixed SQL: ${first.sql}`);
  }
  return first.parameters.map((value, i) => {
    const other = second.parameters[i];
    if (isPlaceholder(value)) {
      if (!isPlaceholder(other) || other[PLACEHOLDER] !== value[PLACEHOLDER] || other.round === value.round) {
        throw new Error(`prepared query binds ${value[PLACEHOLDER]} inconsistently: ${first.sql}`);
      }
      return { param: value[PLACEHOLDER] as keyof P };
    }
    if (isPlaceholder(other) || !Object.is(value, other)) {
      throw new Error(`prepared query has a parameter that is neither a placeholder nor a constant: ${first.sql}`);
    }
    return { constant: value };
  });
}

export function prepared<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, p: Param<P>) => Buildable<R>,
): Prepared<P, R> {
  const definition = {};

  function compileNow(db: Executor): Compiled<P> {
    const first = compileWith(db, build, 1);
    const second = compileWith(db, build, 2);
    return { sql: first.sql, bindings: bindingsOf<P>(first, second) };
  }

  // Compiled once per store (its registry keeps it); on a Kysely instance without one, at every use.
  function compiled(db: Executor): Compiled<P> {
    const registry = registryOf(db);
    if (!registry) return compileNow(db);
    let hit = registry.compiled.get(definition) as Compiled<P> | undefined;
    if (hit === undefined) {
      hit = compileNow(db);
      registry.add(definition, hit as Compiled<never>);
    }
    return hit;
  }
  function compile(db: Executor, params: Params<P>): CompiledQuery<R> {
    const { sql, bindings } = compiled(db);
    const values =
      params instanceof ParamSource
        ? bindings.map((binding) => ('param' in binding ? params.get(binding.param) : binding.constant))
        : bindings.map((binding) => ('param' in binding ? params[binding.param] : binding.constant));
    return CompiledQuery.raw(sql, values) as CompiledQuery<R>;
  }

  async function execute(db: Executor, params: Params<P>): Promise<QueryResult<R>> {
    return db.executeQuery<R>(compile(db, params));
  }

  return {
    compile,
    execute,
    rows: async (db, params) => (await execute(db, params)).rows,
    first: async (db, params) => (await execute(db, params)).rows[0],
  };
}
