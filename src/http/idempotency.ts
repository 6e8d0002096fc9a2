import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompiledQuery, sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { idempotencyScope } from '../actor.js';
import type { Clock } from '../clock.js';
import { ParamLayers, ParamSource, prepared, type Buildable, type Param, type Prepared } from '../db/prepared.js';
import { WriteBatcher, type DirectSqlite } from '../db/write-batcher.js';
import type { Database, Db, Dialect, IdempotencyRecordTable } from '../db/types.js';
import { AppError } from '../errors.js';
import { sha256Hex } from '../ids.js';
import { errorBody, STATUS_BY_CODE } from './errors.js';
import { ShortcutBatcher, type BatchRunner } from './shortcut-batcher.js';

/** Savepoint statements, compiled once (they run several times per write). */
const OPERATION_SAVEPOINT = {
  open: CompiledQuery.raw('savepoint idempotent_operation'),
  release: CompiledQuery.raw('release savepoint idempotent_operation'),
  rollback: CompiledQuery.raw('rollback to savepoint idempotent_operation'),
};

/** Results are replayable for this long. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * An `in_progress` record (written by earlier versions, which claimed keys with a row) whose holder has not
 * finished by then may be taken over. Keys are now locked with transaction-scoped advisory locks instead.
 */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;
const MAX_KEY_LENGTH = 255;
const KEY_RE = /^[\x20-\x7e]+$/;

export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface IdempotentCall {
  readonly scope: string;
  readonly key: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly requestId: string;
}

export interface IdempotentOutcome {
  readonly response: StoredResponse;
  readonly replayed: boolean;
}

export type IdempotentOperation = (trx: Transaction<Database>) => Promise<StoredResponse>;

/**
 * The effect of a shortcut: one data-modifying statement with RETURNING that changes (and returns) a row only
 * when `claim` holds, built with `p(name)` placeholders like a prepared query (src/db/prepared.ts). `claim` is the
 * idempotency layer's own condition on the key: no record yet (and, on PostgreSQL, its lock taken).
 */
export type ShortcutEffect<P> = (db: Kysely<Database>, p: Param<P>, claim: Expression<SqlBool>) => Buildable<unknown>;

/**
 * A write whose success response is known before it runs and whose whole effect is one statement that changes
 * nothing unless that response is exactly its outcome (a heartbeat answers with the instant it records, and
 * moves nothing when an earlier one is already later). The effect and the key's stored result then commit with
 * far fewer statements: on PostgreSQL as one statement, without an explicit transaction, and under load together
 * with other shortcuts in one statement (ShortcutBatcher); on SQLite as two, run directly on the group commit's
 * connection with no savepoint of the operation's own. When the effect changes nothing (the key has a record or is held, the
 * row does not qualify, or the condition fails) nothing is written, and the caller runs the full operation, which
 * replays, refuses or explains (see Idempotency.apply).
 */
export interface Shortcut<
  P extends Record<string, unknown> = Record<string, unknown>,
  C extends Record<string, unknown> = Record<string, unknown>,
> {
  readonly effect: ShortcutEffect<P>;
  readonly params: P;
  /** A 2xx response: the full operation's response whenever the effect applies. */
  readonly response: StoredResponse;
  /** A further condition of the shortcut, checked in the same statement (e.g. that a reused credential holds). */
  readonly condition?: ShortcutCondition<C>;
  /**
   * The row the effect changes (its primary key). On PostgreSQL concurrent shortcuts are applied together, one
   * statement for many (see ShortcutBatcher), which changes each row once and rows in this key's order.
   */
  readonly row: string;
}

/**
 * A condition on the database, with its own `p(name)` placeholders (named apart from the effect's) bound from
 * `params`. `holds` must be a module-level constant: statements are built once per effect and condition.
 */
export interface ShortcutCondition<C extends Record<string, unknown> = Record<string, unknown>> {
  readonly holds: (p: Param<C>) => Expression<SqlBool>;
  readonly params: C;
}

/** The record's values a shortcut statement binds, beside the effect's own. */
interface ShortcutRecordParams {
  readonly recordScope: string;
  readonly recordKey: string;
  readonly recordFingerprint: string;
  readonly recordStatus: number;
  readonly recordBody: string;
  readonly recordRequestId: string;
  readonly recordNow: number;
}

type ShortcutStatement<L> = Prepared<Record<string, unknown> & ShortcutRecordParams & L, unknown>;
/** PostgreSQL's statement also takes the key's advisory lock. */
type LockParam = { readonly recordLock: string };

/** No stored result for the key (its absence is read in the statement's snapshot; see lockingStrategy). */
function noRecordClaim(p: Param<ShortcutRecordParams>): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from idempotency_records where scope = ${p('recordScope')} and key = ${p('recordKey')})`;
}

type Holds = ShortcutCondition['holds'];

/** The condition's builder, as the statement caches key it (its placeholders are typed by the condition). */
function holdsOf<P extends Record<string, unknown>, C extends Record<string, unknown>>(
  shortcut: Shortcut<P, C>,
): Holds | undefined {
  return shortcut.condition?.holds as Holds | undefined;
}

/** What is built once per effect and condition (both are module-level constants): a statement, say. */
function perShortcutShape<T>(compose: (effect: ShortcutEffect<Record<string, unknown>>, holds: Holds | undefined) => T) {
  const byEffect = new WeakMap<object, Map<Holds | undefined, T>>();
  return (effect: object, holds: Holds | undefined): T => {
    let byCondition = byEffect.get(effect);
    if (!byCondition) {
      byCondition = new Map();
      byEffect.set(effect, byCondition);
    }
    let built = byCondition.get(holds);
    if (built === undefined) {
      built = compose(effect as unknown as ShortcutEffect<Record<string, unknown>>, holds);
      byCondition.set(holds, built);
    }
    return built;
  };
}

/** The idempotency layer's claim, and the shortcut's own condition if it has one. */
function claimWith(claim: Expression<SqlBool>, holds: Holds | undefined, p: Param<Record<string, unknown>>) {
  return holds ? sql<SqlBool>`${claim} and ${holds(p)}` : claim;
}

/** The record of a shortcut that applied: inserted from the effect's returned row, so only when it applied. */
function recordInsert(p: Param<ShortcutRecordParams>, effect: string) {
  return sql`insert into idempotency_records
      (scope, key, fingerprint, state, response_status, response_body, request_id, created_at, locked_until)
    select ${p('recordScope')}::text, ${p('recordKey')}::text, ${p('recordFingerprint')}::text, 'completed',
      ${p('recordStatus')}::integer, ${p('recordBody')}::text, ${p('recordRequestId')}::text,
      ${p('recordNow')}::bigint, 0
    from ${sql.table(effect)}`;
}

/** PostgreSQL's claim: the key's advisory lock is free (and now taken) and no record of the key is visible. */
function lockingClaim(p: Param<PostgresShortcutParams>, holds: Holds | undefined) {
  const lockAndNoRecord = sql<SqlBool>`pg_try_advisory_xact_lock(${p('recordLock')}::bigint) and ${noRecordClaim(p)}`;
  return claimWith(lockAndNoRecord, holds, p as Param<Record<string, unknown>>);
}

/**
 * PostgreSQL: the effect and the record insert in one statement. The effect applies only while the key's
 * advisory lock is free and no record is visible; a record committed between the statement's snapshot and its
 * lock makes the insert a unique violation, which undoes the whole statement.
 */
const postgresShortcut = perShortcutShape<PostgresShape>((effect, holds) => ({
  effect,
  holds,
  single: prepared<PostgresShortcutParams, unknown>(
    (db, p) =>
      sql`with effect as (${effect(db, p, lockingClaim(p, holds))})
        ${recordInsert(p, 'effect')}
        returning scope`,
  ),
  batches: [],
}));

/** The most shortcuts one PostgreSQL statement applies. */
const MAX_BATCH = 32;
/**
 * Shortcut statements in flight at once per instance: two keep the database busy while the gateway answers the
 * previous batch. (Measured on the reference machine with 32 clients: one or two in flight gave about 3,300
 * heartbeats a second, eight gave 2,300, and a statement per heartbeat 1,100.)
 */
const BATCH_CONCURRENCY = 2;

/** Item `index`'s placeholder `name` in a batch statement. */
const batchParamName = (index: number, name: string) => `${index}:${name}`;
const batchNames = new Map<string, readonly [number, string]>();

/** A batch statement's values: item `i`'s placeholders are named `i:name` (see batchParamName). */
class BatchValues extends ParamSource<Record<string, unknown>> {
  constructor(private readonly items: readonly ParamSource<unknown>[]) {
    super();
  }

  get(name: PropertyKey): unknown {
    const text = String(name);
    let split = batchNames.get(text);
    if (!split) {
      const colon = text.indexOf(':');
      split = [Number(text.slice(0, colon)), text.slice(colon + 1)];
      batchNames.set(text, split);
    }
    return this.items[split[0]]?.get(split[1]);
  }
}

type PostgresShortcutParams = Record<string, unknown> & ShortcutRecordParams & LockParam;
type BatchStatement = Prepared<Record<string, unknown>, { item: number }>;

/** PostgreSQL's statements for one effect and condition: alone, and for each count of items together. */
interface PostgresShape {
  readonly effect: ShortcutEffect<Record<string, unknown>>;
  readonly holds: Holds | undefined;
  readonly single: Prepared<PostgresShortcutParams, unknown>;
  readonly batches: BatchStatement[];
}

/**
 * PostgreSQL: `count` shortcuts of one shape in one statement, each as its own pair of effect and record
 * insert (exactly the single statement's), run in order; returns the indexes of those that applied. Like the
 * single statement, it commits all it applied or, on any error, nothing.
 */
function postgresBatch(shape: PostgresShape, count: number): BatchStatement {
  let statement = shape.batches[count];
  if (!statement) {
    statement = prepared<Record<string, unknown>, { item: number }>((db, p) => {
      const parts = [];
      const items = [];
      for (let i = 0; i < count; i += 1) {
        const pi = ((name: string) => p(batchParamName(i, name))) as Param<PostgresShortcutParams>;
        parts.push(sql`${sql.table(`effect_${i}`)} as (${shape.effect(db, pi, lockingClaim(pi, shape.holds))}),
          ${sql.table(`record_${i}`)} as (${recordInsert(pi, `effect_${i}`)} returning ${sql.lit(i)}::integer as item)`);
        items.push(sql`select item from ${sql.table(`record_${i}`)}`);
      }
      return sql<{ item: number }>`with ${sql.join(parts)} ${sql.join(items, sql` union all `)}`;
    });
    shape.batches[count] = statement;
  }
  return statement;
}

/** SQLite: the effect alone (the record follows in the same transaction; keys in flight are held in memory). */
const sqliteShortcut = perShortcutShape<ShortcutStatement<unknown>>((effect, holds) =>
  prepared<Record<string, unknown> & ShortcutRecordParams, unknown>((db, p) =>
    effect(db, p, claimWith(noRecordClaim(p), holds, p as Param<Record<string, unknown>>)),
  ),
);

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** Stable JSON: the same object with keys in another order is the same request. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What is wrong with a key as sent, if anything. */
function keyProblem(raw: string | undefined): 'missing' | 'invalid' | null {
  if (raw === undefined || raw === '') return 'missing';
  return raw.length > MAX_KEY_LENGTH || !KEY_RE.test(raw) ? 'invalid' : null;
}

export function validateIdempotencyKey(raw: string | undefined): string {
  const problem = keyProblem(raw);
  if (problem === 'missing') {
    throw new AppError('idempotency_key_required', 'The Idempotency-Key header is required for this operation.');
  }
  if (problem === 'invalid') {
    throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters.');
  }
  return raw as string;
}

/** The key when it is valid, else null (for a shortcut, which leaves the refusal to the full path). */
function acceptableKey(raw: string | undefined): string | null {
  return keyProblem(raw) === null ? (raw as string) : null;
}

export function fingerprintOf(call: IdempotentCall): string {
  return sha256Hex(`${call.method.toUpperCase()} ${call.path}\n${canonicalJson(call.body)}`);
}

const reused = () =>
  new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
const inProgress = () =>
  new AppError(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );

function stored(record: Pick<IdempotencyRecordTable, 'response_status' | 'response_body'>): StoredResponse {
  const body = record.response_body;
  return { status: record.response_status ?? 500, body: body === null ? null : (JSON.parse(body) as unknown) };
}

/**
 * What an existing record means for a new request with the same key: a replay, a refusal (thrown), or a record
 * that may be taken over (expired, or claimed by a holder that crashed).
 */
function judgeExisting(record: IdempotencyRecordTable, fingerprint: string, now: number): StoredResponse | 'take-over' {
  if (record.created_at <= now - IDEMPOTENCY_RETENTION_MS) return 'take-over';
  if (record.fingerprint !== fingerprint) throw reused();
  if (record.state === 'completed') return stored(record);
  if (record.locked_until > now) throw inProgress();
  return 'take-over';
}

/** A 4xx AppError becomes a stored response; anything else is not kept. */
function storableFailure(error: unknown, requestId: string): StoredResponse | null {
  if (!(error instanceof AppError) || STATUS_BY_CODE[error.code] >= 500) return null;
  if (error.code === 'idempotency_request_in_progress') return null;
  return { status: STATUS_BY_CODE[error.code], body: errorBody(requestId, error.code, error.message, error.details) };
}

const selectRecord = prepared<{ scope: string; key: string }, IdempotencyRecordTable>((db, p) =>
  db.selectFrom('idempotency_records').selectAll().where('scope', '=', p('scope')).where('key', '=', p('key')),
);

function findRecord(executor: Db | Transaction<Database>, scope: string, key: string) {
  return selectRecord.first(executor, { scope, key });
}

type CompletedRecord = {
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly status: number;
  readonly body: string;
  readonly requestId: string;
  readonly now: number;
};

/** Stores a completed result, replacing an expired or abandoned record of the key. */
const upsertCompletedRecord = prepared<CompletedRecord, never>((db, p) => {
  const record = {
    fingerprint: p('fingerprint'),
    state: 'completed',
    response_status: p('status'),
    response_body: p('body'),
    request_id: p('requestId'),
    created_at: p('now'),
    locked_until: 0,
  };
  return db
    .insertInto('idempotency_records')
    .values({ scope: p('scope'), key: p('key'), ...record })
    .onConflict((oc) =>
      oc.columns(['scope', 'key']).doUpdateSet((eb) => ({
        fingerprint: eb.ref('excluded.fingerprint'),
        state: eb.ref('excluded.state'),
        response_status: eb.ref('excluded.response_status'),
        response_body: eb.ref('excluded.response_body'),
        request_id: eb.ref('excluded.request_id'),
        created_at: eb.ref('excluded.created_at'),
        locked_until: eb.ref('excluded.locked_until'),
      })),
    );
});

async function storeCompleted(
  trx: Transaction<Database>,
  call: IdempotentCall,
  key: string,
  fingerprint: string,
  response: StoredResponse,
  now: number,
): Promise<void> {
  await upsertCompletedRecord.execute(trx, {
    scope: call.scope,
    key,
    fingerprint,
    status: response.status,
    body: JSON.stringify(response.body),
    requestId: call.requestId,
    now,
  });
}

export interface IdempotencyDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** SQLite group-commits writes (see WriteBatcher); PostgreSQL locks each key inside its operation's transaction. */
  readonly dialect: Dialect;
  /** SQLite: the store's connection, on which shortcuts run synchronously inside the group commit (required). */
  readonly direct?: DirectSqlite;
}

/** Deletes results past their retention; returns how many. Safe when several instances run it at once. */
export async function purgeExpiredIdempotencyRecords({ db, clock }: Pick<IdempotencyDeps, 'db' | 'clock'>): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_records')
    .where('created_at', '<', clock.now() - IDEMPOTENCY_RETENTION_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface Idempotency {
  /** Runs `operation` under the call's key, or replays or refuses as the key's record says. */
  run(call: IdempotentCall, operation: IdempotentOperation): Promise<IdempotentOutcome>;
  /**
   * Applies `shortcut` under the call's key if it can (see Shortcut); null when it did not, leaving everything
   * as it was: the caller then runs the full operation, which replays, refuses or explains.
   */
  apply<P extends Record<string, unknown>, C extends Record<string, unknown>>(
    call: IdempotentCall,
    shortcut: Shortcut<P, C>,
  ): Promise<IdempotentOutcome | null>;
  /** Deletes results past their retention; returns how many. */
  purgeExpired(): Promise<number>;
}

/**
 * One mechanism for every write that takes an Idempotency-Key. Either way:
 * - the operation and its stored response commit together: no effect without its stored result;
 * - a 4xx outcome is stored too (replayed as is); a 5xx outcome keeps nothing, so the client may retry;
 * - a concurrent duplicate sees 409 while the first request is in flight.
 */
export function createIdempotency(deps: IdempotencyDeps): Idempotency {
  const strategy = deps.dialect === 'sqlite' ? batchedStrategy(deps) : lockingStrategy(deps);
  return { ...strategy, purgeExpired: () => purgeExpiredIdempotencyRecords(deps) };
}

/** A signed 64-bit advisory-lock key for an idempotency key (first 8 bytes of its SHA-256), as decimal text. */
export function advisoryLockKey(scope: string, key: string): string {
  return BigInt.asIntN(64, BigInt(`0x${sha256Hex(`idempotency\n${scope}\n${key}`).slice(0, 16)}`)).toString();
}

/** The record's values a shortcut statement binds (PostgreSQL's also names the key's advisory lock). */
function recordOf<P extends Record<string, unknown>, C extends Record<string, unknown>>(
  shortcut: Shortcut<P, C>,
  call: IdempotentCall,
  key: string,
  fingerprint: string,
  now: number,
): ShortcutRecordParams {
  return {
    recordScope: call.scope,
    recordKey: key,
    recordFingerprint: fingerprint,
    recordStatus: shortcut.response.status,
    recordBody: JSON.stringify(shortcut.response.body),
    recordRequestId: call.requestId,
    recordNow: now,
  };
}

const NO_CONDITION: Record<string, never> = {};

/** Everything a shortcut statement binds: the effect's values, its condition's and the record's. */
function shortcutParams<P extends Record<string, unknown>, C extends Record<string, unknown>, R extends object[]>(
  shortcut: Shortcut<P, C>,
  ...record: R
) {
  return ParamLayers.of(shortcut.params, shortcut.condition?.params ?? NO_CONDITION, ...record);
}

/** An error thrown by the operation itself (as opposed to the idempotency checks around it). */
class OperationFailed extends Error {
  constructor(readonly failure: unknown) {
    super('idempotent operation failed');
  }
}

/**
 * PostgreSQL (several instances, many connections): one transaction holds a transaction-scoped advisory lock on
 * the key, looks for a stored result, runs the operation and stores its result, and commits once. A duplicate on
 * any instance that finds the lock taken answers 409 at once; one that comes after the commit finds the result.
 * The lock belongs to the transaction, so an instance that dies mid-request leaves nothing behind: the database
 * ends its session and releases the lock, and a retry runs at once.
 */
function lockingStrategy({ db, clock }: IdempotencyDeps): Pick<Idempotency, 'run' | 'apply'> {
  /**
   * A stored result to replay, or null when this request is to run, holding the key's lock. One statement tries
   * the lock and reads the record: a completed record is final, so it is replayed (or refused as reused) whether
   * or not the lock was free, and concurrent replays never wait for each other. When no record was read, it is
   * read again under the lock, in a snapshot taken after it (the first one predates the lock).
   */
  async function storedResult(
    trx: Transaction<Database>,
    call: IdempotentCall,
    key: string,
    fingerprint: string,
    now: number,
  ): Promise<StoredResponse | null> {
    const { rows } = await sql<{ locked: boolean } & Partial<IdempotencyRecordTable>>`
      select pg_try_advisory_xact_lock(${advisoryLockKey(call.scope, key)}::bigint) as locked, r.*
      from (select 1) as one
      left join idempotency_records as r on r.scope = ${call.scope} and r.key = ${key}
    `.execute(trx);
    const first = rows[0];
    const seen = first?.fingerprint == null ? undefined : (first as IdempotencyRecordTable);
    if (seen) {
      const verdict = judgeExisting(seen, fingerprint, now);
      if (verdict !== 'take-over') return verdict;
    }
    if (first?.locked !== true) throw inProgress();
    if (seen) return null;
    const existing = await findRecord(trx, call.scope, key);
    if (!existing) return null;
    const verdict = judgeExisting(existing, fingerprint, now);
    return verdict === 'take-over' ? null : verdict;
  }

  /** Applies shortcuts alone or, when several are waiting, together (see ShortcutBatcher). */
  const runner: BatchRunner<PostgresShape, ParamSource<PostgresShortcutParams>> = {
    together: async (shape, items) => {
      const rows = await postgresBatch(shape, items.length).rows(db, new BatchValues(items));
      return new Set(rows.map((row) => row.item));
    },
    alone: async (shape, item) => {
      try {
        return (await shape.single.rows(db, item)).length > 0;
      } catch (error) {
        if (isUniqueViolation(error)) return false; // the key was completed meanwhile: the full path replays it
        throw error;
      }
    },
  };
  const batcher = new ShortcutBatcher(runner, { maxBatch: MAX_BATCH, concurrency: BATCH_CONCURRENCY });

  /**
   * The shortcut's effect and its stored result, committed in one statement (so both or neither), alone or
   * together with other shortcuts waiting at the time.
   */
  async function apply<P extends Record<string, unknown>, C extends Record<string, unknown>>(
    call: IdempotentCall,
    shortcut: Shortcut<P, C>,
  ) {
    const key = acceptableKey(call.key);
    if (key === null) return null;
    const record = recordOf(shortcut, call, key, fingerprintOf(call), clock.now());
    const lock: LockParam = { recordLock: advisoryLockKey(call.scope, key) };
    const applied = await batcher.apply({
      shape: postgresShortcut(shortcut.effect, holdsOf(shortcut)),
      values: shortcutParams(shortcut, record, lock) as ParamSource<PostgresShortcutParams>,
      row: shortcut.row,
      exclusive: lock.recordLock,
    });
    return applied ? { response: shortcut.response, replayed: false } : null;
  }

  async function run(call: IdempotentCall, operation: IdempotentOperation): Promise<IdempotentOutcome> {
    const key = validateIdempotencyKey(call.key);
    const fingerprint = fingerprintOf(call);
    try {
      return await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const replay = await storedResult(trx, call, key, fingerprint, now);
        if (replay) return { response: replay, replayed: true };
        let response: StoredResponse;
        try {
          response = await operation(trx);
        } catch (error) {
          throw new OperationFailed(error);
        }
        await storeCompleted(trx, call, key, fingerprint, response, now);
        return { response, replayed: false };
      });
    } catch (error) {
      if (!(error instanceof OperationFailed)) throw error;
      const failure = storableFailure(error.failure, call.requestId);
      if (!failure) throw error.failure;
      // The operation's writes went with the rolled-back transaction; its 4xx outcome is stored on its own,
      // unless a duplicate completed the key in between (its result is then the key's result).
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const replay = await storedResult(trx, call, key, fingerprint, now);
        if (replay) return { response: replay, replayed: true };
        await storeCompleted(trx, call, key, fingerprint, failure, now);
        return { response: failure, replayed: false };
      });
    }
  }

  return { run, apply };
}

/**
 * SQLite (one writer): keys in flight are tracked in memory, so a duplicate gets 409 at once; the lookup, the
 * operation and the stored result run as one job of the group commit, inside a savepoint of their own.
 */
function batchedStrategy({ db, clock, direct }: IdempotencyDeps): Pick<Idempotency, 'run' | 'apply'> {
  if (!direct) throw new Error('the embedded store\'s idempotency needs its direct connection (Store.direct)');
  const batcher = new WriteBatcher(db, undefined, direct);
  const inFlight = new Map<string, string>();

  /**
   * The shortcut's effect, then (when it applied) its stored result: one job of the group commit, run
   * synchronously on the batch's connection (both statements are known before it runs).
   */
  function shortcutJob<P extends Record<string, unknown>, C extends Record<string, unknown>>(
    sqlite: DirectSqlite,
    call: IdempotentCall,
    key: string,
    fingerprint: string,
    shortcut: Shortcut<P, C>,
  ): IdempotentOutcome | null {
    const now = clock.now();
    const record = recordOf(shortcut, call, key, fingerprint, now);
    const effect = sqliteShortcut(shortcut.effect, holdsOf(shortcut));
    if (sqlite.all(effect.compile(db, shortcutParams(shortcut, record))).length === 0) return null;
    sqlite.run(
      upsertCompletedRecord.compile(db, {
        scope: record.recordScope,
        key,
        fingerprint,
        status: record.recordStatus,
        body: record.recordBody,
        requestId: record.recordRequestId,
        now,
      }),
    );
    return { response: shortcut.response, replayed: false };
  }

  async function job(
    trx: Transaction<Database>,
    call: IdempotentCall,
    key: string,
    fingerprint: string,
    operation: IdempotentOperation,
  ): Promise<IdempotentOutcome> {
    const now = clock.now();
    const existing = await findRecord(trx, call.scope, key);
    if (existing) {
      const verdict = judgeExisting(existing, fingerprint, now);
      if (verdict !== 'take-over') return { response: verdict, replayed: true };
    }
    let response: StoredResponse;
    await trx.executeQuery(OPERATION_SAVEPOINT.open);
    try {
      response = await operation(trx);
      await trx.executeQuery(OPERATION_SAVEPOINT.release);
    } catch (error) {
      await trx.executeQuery(OPERATION_SAVEPOINT.rollback);
      await trx.executeQuery(OPERATION_SAVEPOINT.release);
      const failure = storableFailure(error, call.requestId);
      if (!failure) throw error;
      response = failure;
    }
    await storeCompleted(trx, call, key, fingerprint, response, now);
    return { response, replayed: false };
  }

  const flightKeyOf = (call: IdempotentCall, key: string) => `${call.scope}\n${key}`;

  /** Runs `work` holding the key in flight (a duplicate meanwhile is refused: 409, or 422 for another request). */
  async function holding<T>(call: IdempotentCall, key: string, fingerprint: string, work: () => Promise<T>) {
    const flightKey = flightKeyOf(call, key);
    const flying = inFlight.get(flightKey);
    if (flying !== undefined) throw flying === fingerprint ? inProgress() : reused();
    inFlight.set(flightKey, fingerprint);
    try {
      return await work();
    } finally {
      inFlight.delete(flightKey);
    }
  }

  return {
    run: async (call, operation) => {
      const key = validateIdempotencyKey(call.key);
      const fingerprint = fingerprintOf(call);
      return holding(call, key, fingerprint, () => batcher.submit((trx) => job(trx, call, key, fingerprint, operation)));
    },
    apply: async (call, shortcut) => {
      const key = acceptableKey(call.key);
      if (key === null || inFlight.has(flightKeyOf(call, key))) return null; // the full path says why
      const fingerprint = fingerprintOf(call);
      return holding(call, key, fingerprint, () =>
        batcher.submitDirect((sqlite) => shortcutJob(sqlite, call, key, fingerprint, shortcut)),
      );
    },
  };
}

/** The idempotent call a request makes: its principal's scope, its key, and what it asks. */
export function idempotentCall(request: FastifyRequest): IdempotentCall {
  if (!request.actor) throw new AppError('unauthenticated', 'A valid bearer credential is required.');
  const rawKey = request.headers['idempotency-key'];
  return {
    scope: idempotencyScope(request.actor),
    key: Array.isArray(rawKey) ? rawKey.join(', ') : rawKey,
    method: request.method,
    path: request.url.split('?')[0] ?? request.url,
    body: request.body,
    requestId: request.id,
  };
}

/** Sends an outcome, fresh or replayed. */
export function sendOutcome(reply: FastifyReply, outcome: IdempotentOutcome): FastifyReply {
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.response.status).send(outcome.response.body);
}

/**
 * Route glue: runs `operation` under the request's Idempotency-Key and sends the outcome (fresh or replayed).
 * The caller must have authenticated the request (the key is scoped to its principal).
 */
export async function sendIdempotent(
  idempotency: Idempotency,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: IdempotentOperation,
): Promise<FastifyReply> {
  return sendOutcome(reply, await idempotency.run(idempotentCall(request), operation));
}
