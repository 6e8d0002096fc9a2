/**
 * The stored results of idempotent requests (table `idempotency_records`): taking a key, what its record means
 * for a new request, storing a result, and the purge of expired ones.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import { runStatement, type IdempotencyKeyRow } from '../db/sql/index.ts';
import type { Database, Executor } from '../db/types.ts';
import { AppError } from '../errors.ts';
import type { StoredResponse, StoredResult } from './index.ts';

/** Results are replayable for this long. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** 422: the key was used with another request (another method, path or body). */
export const reusedKey = () =>
  new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
/** 409: a request with the key is in flight. */
export const keyInProgress = () =>
  new AppError(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );

/**
 * Takes the key for this request's transaction (on PostgreSQL its advisory lock, for the transaction; on SQLite
 * the key is already held in memory) and judges its record: the stored response to replay, or null when the
 * request is to run (no record, or one that has expired). Throws 422 for a record of another request, 409 when
 * another request holds the key.
 */
export async function takeKey(
  trx: Transaction<Database>,
  scope: string,
  key: string,
  fingerprint: string,
  now: number,
): Promise<StoredResponse | null> {
  const [row] = await runStatement(trx, 'takeIdempotencyKey', [scope, key]);
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
  const { scope, key, fingerprint, status, body, requestId, now } = result;
  const stored = await runStatement(trx, 'storeIdempotentResult', [
    scope,
    key,
    fingerprint,
    status,
    body,
    requestId,
    now,
    now - IDEMPOTENCY_RETENTION_MS,
  ]);
  return stored.length > 0;
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
