/**
 * The stored results of idempotent requests (table `idempotency_records`): taking a key, what its record means
 * for a new request, storing a result, and the purge of expired ones.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { DAY_MS, type Clock } from '../shared/clock.ts';
import { dialectOf } from '../db/dialect.ts';
import { CompiledOnce, type NamedTerm } from '../db/compiled.ts';
import {
  checkHolds,
  credentialHolds,
  holdsColumn,
  namedCredential,
  type Precondition,
} from '../auth/keys/api-key.ts';
import type { KeyCredential } from '../shared/actor.ts';
import type { Database, Executor, SqlTerm } from '../db/types.ts';
import { AppError } from '../shared/errors.ts';

/** A result as stored and replayed: the response's status and body. */
export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

/** A request's result as it is stored under its key. */
export interface StoredResult {
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly status: number;
  /** The response body as JSON text. */
  readonly body: string;
  readonly requestId: string;
  /** When it is stored: it is replayed for IDEMPOTENCY_RETENTION_MS from then. */
  readonly now: number;
}

/** Results are replayable for this long. */
export const IDEMPOTENCY_RETENTION_MS = DAY_MS;

/** 422: the key was used with another request (another method, path or body). */
export const reusedKey = () =>
  new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
/** 409: a request with the key is in flight. */
export const keyInProgress = () =>
  new AppError(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );

/** A key's stored result, if any, and whether this request holds the key (PostgreSQL: its advisory lock). */
interface IdempotencyKeyRow {
  /** True (PostgreSQL) or 1 (SQLite) when the key is this request's to run. */
  readonly locked: boolean | number;
  /** Whether the call's precondition holds (true or 1), when it has one. */
  readonly holds?: boolean | number;
  readonly fingerprint: string | null;
  readonly response_status: number | null;
  readonly response_body: string | null;
  readonly created_at: number | null;
}

/**
 * SQL (PostgreSQL): takes the key's advisory lock for the rest of the transaction, true when it was free. The lock
 * is the first 64 bits of SHA-256 of `idempotency`, the scope and the key, one per line.
 */
export function idempotencyKeyLock(scope: SqlTerm<string>, key: SqlTerm<string>): RawBuilder<boolean> {
  return sql<boolean>`pg_try_advisory_xact_lock(
         ('x' || left(encode(sha256(convert_to('idempotency' || chr(10) || ${scope} || chr(10) || ${key}, 'UTF8')), 'hex'), 16))::bit(64)::bigint
       )`;
}

/** The values of the statement that takes a key. */
type KeyValues = { readonly scope: string; readonly key: string };
/** The same, with the credential of a cached API key it checks at `now`. */
type KeyValuesHolding = KeyValues & KeyCredential & { readonly now: number };

/**
 * The statement that takes a key: on PostgreSQL its advisory lock, for the transaction; on SQLite the key is already
 * held in memory (src/idempotency/index.ts). On PostgreSQL the record is read in the statement's snapshot, taken
 * before the lock: a duplicate that committed in between is not seen here, and storeResult then finds it instead.
 */
function takeKeyStatement(
  db: Executor,
  term: NamedTerm<KeyValues>,
  check?: Precondition,
): RawBuilder<IdempotencyKeyRow> {
  const [scope, key] = [term<string>('scope'), term<string>('key')];
  const locked = dialectOf(db) === 'postgres' ? idempotencyKeyLock(scope, key) : sql`1`;
  return sql<IdempotencyKeyRow>`select ${locked} as locked${holdsColumn(check)},
       r.fingerprint, r.response_status, r.response_body, r.created_at
from (select 1) as one
left join idempotency_records as r on r.scope = ${scope} and r.key = ${key}`;
}

// Every write takes its key: both forms are compiled once (db/compiled.ts).
const TAKE_KEY = new CompiledOnce<KeyValues, IdempotencyKeyRow>((term, db) => takeKeyStatement(db, term));
const TAKE_KEY_HOLDING = new CompiledOnce<KeyValuesHolding, IdempotencyKeyRow>((term, db) =>
  takeKeyStatement(db, term, credentialHolds(namedCredential(term), term('now'))),
);

/**
 * Takes the key for this request's transaction and judges its record: the stored response to replay, or null when
 * the request is to run (no record, or one that has expired). With `credential` (a cached API key's, which a lookup
 * would otherwise confirm), the same statement checks that it still holds at `now`, and throws PreconditionFailed
 * (auth/keys/api-key.ts) before anything else when it does not. Throws 422 for a record of another request, 409 when
 * another request holds the key.
 */
export async function takeKey(
  trx: Transaction<Database>,
  scope: string,
  key: string,
  fingerprint: string,
  now: number,
  credential?: KeyCredential,
): Promise<StoredResponse | null> {
  const [row] =
    credential === undefined
      ? await TAKE_KEY.rows(trx, { scope, key })
      : await TAKE_KEY_HOLDING.rows(trx, { ...credential, scope, key, now });
  checkHolds(credential !== undefined, row);
  const replay = row ? judgeRecord(row, fingerprint, now) : null;
  if (replay) return replay;
  if (!row?.locked) throw keyInProgress();
  return null;
}

/** What a key's record means for a request with `fingerprint`: its response to replay, or null (none, or expired). */
function judgeRecord(row: IdempotencyKeyRow, fingerprint: string, now: number): StoredResponse | null {
  if (row.fingerprint === null || row.created_at === null) return null;
  if (row.created_at <= now - IDEMPOTENCY_RETENTION_MS) return null;
  if (row.fingerprint !== fingerprint) throw reusedKey();
  const body = row.response_body;
  return { status: row.response_status ?? 500, body: body === null ? null : (JSON.parse(body) as unknown) };
}

/**
 * Stores a request's result in its transaction, replacing an expired record of the key; false (nothing stored)
 * when the key has a live record: a duplicate completed it after this request took the key (possible only on
 * PostgreSQL, whose first read of the key predates its lock).
 */
export async function storeResult(trx: Transaction<Database>, result: StoredResult): Promise<boolean> {
  const expiredUpTo = result.now - IDEMPOTENCY_RETENTION_MS;
  return (await STORE_RESULT.rows(trx, { ...result, expiredUpTo })).length > 0;
}

/**
 * The columns of a stored result, in the order its values are given: scope, key, fingerprint, status, body, request
 * id and instant, then its state (completed: no request holds the key) and the end of a hold (none).
 */
const RESULT_COLUMNS = sql`(scope, key, fingerprint, response_status, response_body, request_id, created_at, state, locked_until)`;
const COMPLETED = sql`'completed', 0`;

const STORE_RESULT = new CompiledOnce<StoredResult & { readonly expiredUpTo: number }, { key: string }>(
  (term) => sql`insert into idempotency_records
  ${RESULT_COLUMNS}
values (${term('scope')}, ${term('key')}, ${term('fingerprint')}, ${term('status')}, ${term('body')}, ${term('requestId')}, ${term('now')}, ${COMPLETED})
on conflict (scope, key) do update set
  fingerprint = excluded.fingerprint, state = 'completed', response_status = excluded.response_status,
  response_body = excluded.response_body, request_id = excluded.request_id, created_at = excluded.created_at,
  locked_until = 0
where idempotency_records.created_at <= ${term('expiredUpTo')}
returning key`,
);

/** SQL: no result is stored under the key (a known write applies only then). */
export function noStoredResult(scope: SqlTerm<string>, key: SqlTerm<string>): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from idempotency_records where scope = ${scope} and key = ${key})`;
}

/**
 * PostgreSQL: a known write (docs/ARCHITECTURE.md, "A heartbeat") applied with its stored results, both or neither,
 * in one statement. `change` is a data-modifying statement that returns a row per change it applied; `result`
 * selects from that row the result to store, in the order of RESULT_COLUMNS (scope to instant). Returns the keys
 * stored. A result of a key committed after the statement's snapshot is a unique violation that undoes it all.
 */
export function applyWithResults(change: RawBuilder<unknown>, result: RawBuilder<unknown>): RawBuilder<{ scope: string; key: string }> {
  return sql<{ scope: string; key: string }>`with change as (
  ${change}
)
insert into idempotency_records
  ${RESULT_COLUMNS}
select ${result}, ${COMPLETED}
from change
returning scope, key`;
}

/** Records one purge step deletes: bounds how long a step holds the event loop (SQLite) and its locks. */
const PURGE_CHUNK = 1000;

/**
 * Deletes results past their retention, in steps of at most `chunk` records (oldest first, index
 * idempotency_records_created), yielding to the event loop between steps; returns how many. Safe when several
 * instances run it at once.
 */
export async function purgeExpiredRecords(db: Executor, clock: Clock, chunk = PURGE_CHUNK): Promise<number> {
  const cutoff = clock.now() - IDEMPOTENCY_RETENTION_MS;
  let purged = 0;
  for (;;) {
    const result = await sql`
      delete from idempotency_records where (scope, key) in (
        select scope, key from idempotency_records where created_at < ${cutoff} order by created_at limit ${chunk})`.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0);
    purged += deleted;
    if (deleted < chunk) return purged;
    await yieldToEventLoop();
  }
}
