/**
 * Fused writes: a write whose success response is known before it runs and whose whole effect is one statement
 * that changes nothing unless that response is exactly its outcome (a heartbeat answers with the instant it
 * records, and moves nothing when an earlier one is already later). The effect and the key's stored result then
 * commit together in far fewer statements than the full operation: on PostgreSQL as one statement without an
 * explicit transaction (and, under load, many fused writes in one statement: fused-batcher.ts); on SQLite as
 * two, run synchronously inside the group commit. When the effect changes nothing (the key has a record or is
 * held, the row does not qualify, or the condition fails) nothing is written, and the caller runs the full
 * operation, which replays, refuses or explains.
 *
 * Each fused write is declared once, at module load, with defineFusedWrite; its statements are built from that
 * definition and compiled once per store.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { prepared, type Buildable, type Param, type Prepared } from '../db/prepared.ts';
import type { Database } from '../db/types.ts';

/**
 * The effect: one data-modifying statement with RETURNING that changes (and returns) a row only when `keyFree`
 * holds, built with `p(name)` placeholders like a prepared query (src/db/prepared.ts). `keyFree` is the
 * idempotency layer's own condition on the key: no record yet (and, on PostgreSQL, its lock taken).
 */
export type FusedEffect<P> = (db: Kysely<Database>, p: Param<P>, keyFree: Expression<SqlBool>) => Buildable<unknown>;

/**
 * A further condition a fused write may be given at run time (e.g. that a reused credential still holds), with
 * its own `p(name)` placeholders, named apart from the effect's, checked in the same statement.
 */
export type FusedCondition<C> = (p: Param<C>) => Expression<SqlBool>;

type AnyParams = Record<string, unknown>;

/** The record's values a fused statement binds, beside the effect's own. */
export interface RecordParams {
  readonly recordScope: string;
  readonly recordKey: string;
  readonly recordFingerprint: string;
  readonly recordStatus: number;
  readonly recordBody: string;
  readonly recordRequestId: string;
  readonly recordNow: number;
}

/** PostgreSQL's statement also takes the key's advisory lock. */
export interface LockParams {
  readonly recordLock: string;
}

export type PostgresFusedParams = AnyParams & RecordParams & LockParams;
export type BatchStatement = Prepared<AnyParams, { item: number }>;

/**
 * The statements of one fused write, with or without its condition: fused writes of the same statements (and
 * only those) go together in one PostgreSQL statement.
 */
export interface FusedStatements {
  readonly name: string;
  /** PostgreSQL: the effect and the record insert in one statement (see postgresSingle). */
  readonly postgres: Prepared<PostgresFusedParams, unknown>;
  /** PostgreSQL: `count` fused writes in one statement, built at first use of each count (see postgresBatch). */
  readonly postgresBatches: BatchStatement[];
  /** SQLite: the effect alone (the record follows in the same group-commit job). */
  readonly sqlite: Prepared<AnyParams & RecordParams, unknown>;
  /** PostgreSQL batches: the effect with `p` bound to the item's placeholders. */
  readonly effectFor: (db: Kysely<Database>, p: Param<PostgresFusedParams>) => Buildable<unknown>;
}

export interface FusedWrite<P extends AnyParams, C extends AnyParams = never> {
  readonly name: string;
  /** The statements without the condition. */
  readonly plain: FusedStatements;
  /** The statements with the condition, when the definition declares one. */
  readonly conditioned: FusedStatements | undefined;
  /** Only types the definition; never set. */
  readonly types?: { readonly params: P; readonly condition: C };
}

export interface FusedWriteDefinition<P extends AnyParams, C extends AnyParams> {
  /** Names it in errors and in the statements' documentation. */
  readonly name: string;
  readonly effect: FusedEffect<P>;
  /** A condition each run may opt into by giving its values (see FusedWriteRun.conditionParams). */
  readonly condition?: FusedCondition<C>;
}

/** No stored result for the key (its absence is read in the statement's snapshot; see the PostgreSQL strategy). */
function noRecord(p: Param<RecordParams>): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from idempotency_records where scope = ${p('recordScope')} and key = ${p('recordKey')})`;
}

/** PostgreSQL's key condition: the key's advisory lock is free (and now taken) and no record of the key is visible. */
function lockedAndNoRecord(p: Param<PostgresFusedParams>): Expression<SqlBool> {
  return sql<SqlBool>`pg_try_advisory_xact_lock(${p('recordLock')}::bigint) and ${noRecord(p)}`;
}

/** The record of a fused write that applied: inserted from the effect's returned row, so only when it applied. */
export function recordInsert(p: Param<RecordParams>, effect: string) {
  return sql`insert into idempotency_records
      (scope, key, fingerprint, state, response_status, response_body, request_id, created_at, locked_until)
    select ${p('recordScope')}::text, ${p('recordKey')}::text, ${p('recordFingerprint')}::text, 'completed',
      ${p('recordStatus')}::integer, ${p('recordBody')}::text, ${p('recordRequestId')}::text,
      ${p('recordNow')}::bigint, 0
    from ${sql.table(effect)}`;
}

function statementsOf(
  name: string,
  effect: FusedEffect<AnyParams>,
  condition: FusedCondition<AnyParams> | undefined,
): FusedStatements {
  const guarded = (keyFree: Expression<SqlBool>, p: Param<AnyParams>) =>
    condition ? sql<SqlBool>`${keyFree} and ${condition(p)}` : keyFree;
  const effectFor = (db: Kysely<Database>, p: Param<PostgresFusedParams>) =>
    effect(db, p as Param<AnyParams>, guarded(lockedAndNoRecord(p), p as Param<AnyParams>));
  return {
    name,
    effectFor,
    // The effect applies only while the key's advisory lock is free and no record is visible; a record committed
    // between the statement's snapshot and its lock makes the insert a unique violation, which undoes the whole
    // statement.
    postgres: prepared<PostgresFusedParams, unknown>(
      (db, p) => sql`with effect as (${effectFor(db, p)})
        ${recordInsert(p, 'effect')}
        returning scope`,
    ),
    postgresBatches: [],
    sqlite: prepared<AnyParams & RecordParams, unknown>((db, p) =>
      effect(db, p as Param<AnyParams>, guarded(noRecord(p), p as Param<AnyParams>)),
    ),
  };
}

/** Declares a fused write (once, at module load). */
export function defineFusedWrite<P extends AnyParams, C extends AnyParams = never>(
  definition: FusedWriteDefinition<P, C>,
): FusedWrite<P, C> {
  const effect = definition.effect as unknown as FusedEffect<AnyParams>;
  const condition = definition.condition as unknown as FusedCondition<AnyParams> | undefined;
  return {
    name: definition.name,
    plain: statementsOf(definition.name, effect, undefined),
    conditioned: condition ? statementsOf(`${definition.name} (conditioned)`, effect, condition) : undefined,
  };
}

/** One run of a fused write: its values, the response it answers with, and the row it changes. */
export interface FusedWriteRun<P extends AnyParams, C extends AnyParams = never> {
  readonly write: FusedWrite<P, C>;
  readonly params: P;
  /** The condition's values, to check the definition's condition in the same statement; omitted, it is not checked. */
  readonly conditionParams?: C | undefined;
  /** A 2xx response: the full operation's response whenever the effect applies. */
  readonly response: { readonly status: number; readonly body: unknown };
  /**
   * The row the effect changes (its primary key). On PostgreSQL concurrent fused writes are applied together,
   * one statement for many (fused-batcher.ts), which changes each row once and rows in this key's order.
   */
  readonly row: string;
}

/** The statements a run uses: the conditioned ones when it gives the condition's values. */
export function statementsFor(run: FusedWriteRun<AnyParams, AnyParams>): FusedStatements {
  if (run.conditionParams === undefined) return run.write.plain;
  const conditioned = run.write.conditioned;
  if (!conditioned) throw new Error(`fused write ${run.write.name} declares no condition`);
  return conditioned;
}

/** Item `index`'s placeholder `name` in a batch statement. */
export const batchParamName = (index: number, name: string) => `${index}:${name}`;

/**
 * PostgreSQL: `count` fused writes of the same statements in one statement, each as its own pair of effect and
 * record insert (exactly the single statement's), run in order; returns the indexes of those that applied. Like
 * the single statement, it commits all it applied or, on any error, nothing.
 */
export function postgresBatch(statements: FusedStatements, count: number): BatchStatement {
  let statement = statements.postgresBatches[count];
  if (!statement) {
    statement = prepared<AnyParams, { item: number }>((db, p) => {
      const parts = [];
      const items = [];
      for (let i = 0; i < count; i += 1) {
        const pi = ((name: string) => p(batchParamName(i, name))) as Param<PostgresFusedParams>;
        parts.push(sql`${sql.table(`effect_${i}`)} as (${statements.effectFor(db, pi)}),
          ${sql.table(`record_${i}`)} as (${recordInsert(pi, `effect_${i}`)} returning ${sql.lit(i)}::integer as item)`);
        items.push(sql`select item from ${sql.table(`record_${i}`)}`);
      }
      return sql<{ item: number }>`with ${sql.join(parts)} ${sql.join(items, sql` union all `)}`;
    });
    statements.postgresBatches[count] = statement;
  }
  return statement;
}
