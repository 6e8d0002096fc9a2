/**
 * The stored results of idempotent requests (table `idempotency_records`): lookup, what a record means for a new
 * request with its key, storing a result, and the purge of expired ones.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import { prepared, type Param } from '../db/prepared.ts';
import type { Database, Executor, IdempotencyRecordTable } from '../db/types.ts';
import { AppError } from '../errors.ts';
import type { IdempotentCall } from './identity.ts';

/** Results are replayable for this long. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * An `in_progress` record (written by earlier versions, which claimed keys with a row) whose holder has not
 * finished by then may be taken over. Keys are now locked with transaction-scoped advisory locks instead.
 */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;

/** A result as stored and replayed: the response's status and body. */
export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export const reusedKey = () =>
  new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
export const keyInProgress = () =>
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
export function judgeExisting(
  record: IdempotencyRecordTable,
  fingerprint: string,
  now: number,
): StoredResponse | 'take-over' {
  if (record.created_at <= now - IDEMPOTENCY_RETENTION_MS) return 'take-over';
  if (record.fingerprint !== fingerprint) throw reusedKey();
  if (record.state === 'completed') return stored(record);
  if (record.locked_until > now) throw keyInProgress();
  return 'take-over';
}

const selectRecord = prepared<{ scope: string; key: string }, IdempotencyRecordTable>((db, p) =>
  db.selectFrom('idempotency_records').selectAll().where('scope', '=', p('scope')).where('key', '=', p('key')),
);

export function findRecord(executor: Executor, scope: string, key: string) {
  return selectRecord.first(executor, { scope, key });
}

/** A completed result's values, as the record statements bind them. */
export type CompletedRecord = {
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly status: number;
  readonly body: string;
  readonly requestId: string;
  readonly now: number;
};

/**
 * The insert of a completed result; on a conflict with the key's record it takes the new values, everywhere when
 * `replaceable` is absent, else only where that condition holds of the record.
 */
function completedRecordInsert(
  db: Kysely<Database>,
  p: Param<CompletedRecord>,
  replaceable?: (eb: ExpressionBuilder<Database, 'idempotency_records'>) => Expression<SqlBool>,
) {
  return db
    .insertInto('idempotency_records')
    .values({
      scope: p('scope'),
      key: p('key'),
      fingerprint: p('fingerprint'),
      state: 'completed',
      response_status: p('status'),
      response_body: p('body'),
      request_id: p('requestId'),
      created_at: p('now'),
      locked_until: 0,
    })
    .onConflict((oc) => {
      const update = oc.columns(['scope', 'key']).doUpdateSet((eb) => ({
        fingerprint: eb.ref('excluded.fingerprint'),
        state: eb.ref('excluded.state'),
        response_status: eb.ref('excluded.response_status'),
        response_body: eb.ref('excluded.response_body'),
        request_id: eb.ref('excluded.request_id'),
        created_at: eb.ref('excluded.created_at'),
        locked_until: eb.ref('excluded.locked_until'),
      }));
      return replaceable ? update.where((eb) => replaceable(eb as ExpressionBuilder<Database, 'idempotency_records'>)) : update;
    });
}

/** Stores a completed result, replacing an expired or abandoned record of the key. */
export const upsertCompletedRecord = prepared<CompletedRecord, never>((db, p) => completedRecordInsert(db, p));

/**
 * Stores a completed result unless the key has a record that judgeExisting would not let a request take over
 * (then nothing is written and no row is returned). On PostgreSQL the first read of a key runs in a snapshot taken
 * before the key's lock was granted, so a duplicate that committed in between is invisible to it; this statement's
 * conflict check sees every committed row, so such a duplicate shows here, instead of costing every write a second
 * read of its key under the lock.
 */
const insertCompletedRecordUnlessReplayable = prepared<CompletedRecord & { cutoff: number }, { key: string }>(
  (db, p) =>
    completedRecordInsert(db, p, (eb) =>
      eb.or([
        eb('idempotency_records.created_at', '<=', p('cutoff')),
        eb.and([eb('idempotency_records.state', '<>', 'completed'), eb('idempotency_records.locked_until', '<=', p('now'))]),
      ]),
    ).returning('key'),
);

/** A request's result as the record statements bind it. */
export function completedRecord(
  call: IdempotentCall,
  key: string,
  fingerprint: string,
  response: StoredResponse,
  now: number,
): CompletedRecord {
  return {
    scope: call.scope,
    key,
    fingerprint,
    status: response.status,
    body: JSON.stringify(response.body),
    requestId: call.requestId,
    now,
  };
}

/** Stores a completed result, replacing an expired or abandoned record of the key. */
export async function storeCompleted(trx: Transaction<Database>, record: CompletedRecord): Promise<void> {
  await upsertCompletedRecord.execute(trx, record);
}

/**
 * Stores a completed result unless the key has a replayable record (see insertCompletedRecordUnlessReplayable);
 * whether it was stored.
 */
export async function storeCompletedUnlessReplayable(trx: Transaction<Database>, record: CompletedRecord): Promise<boolean> {
  const stored = await insertCompletedRecordUnlessReplayable.rows(trx, {
    ...record,
    cutoff: record.now - IDEMPOTENCY_RETENTION_MS,
  });
  return stored.length > 0;
}

/** Records one purge step deletes: bounds how long a step holds the event loop (SQLite) and its locks. */
export const PURGE_CHUNK = 1000;

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
