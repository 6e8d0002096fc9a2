import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { idempotencyScope } from '../actor.js';
import type { Clock } from '../clock.js';
import { WriteBatcher } from '../db/write-batcher.js';
import type { Database, Db, Dialect, IdempotencyRecordTable } from '../db/types.js';
import { AppError } from '../errors.js';
import { sha256Hex } from '../ids.js';
import { errorBody, STATUS_BY_CODE } from './errors.js';

/** Results are replayable for this long. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim whose holder has not finished by then (a crashed instance) may be taken over. */
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

export function validateIdempotencyKey(raw: string | undefined): string {
  if (raw === undefined || raw === '') {
    throw new AppError('idempotency_key_required', 'The Idempotency-Key header is required for this operation.');
  }
  if (raw.length > MAX_KEY_LENGTH || !KEY_RE.test(raw)) {
    throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters.');
  }
  return raw;
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

function findRecord(executor: Db | Transaction<Database>, scope: string, key: string) {
  return executor
    .selectFrom('idempotency_records')
    .selectAll()
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
}

export interface IdempotencyDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** SQLite group-commits writes (see WriteBatcher); PostgreSQL claims keys in their own commit. */
  readonly dialect: Dialect;
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
  run(call: IdempotentCall, operation: IdempotentOperation): Promise<IdempotentOutcome>;
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
  const strategy = deps.dialect === 'sqlite' ? batchedStrategy(deps) : claimingStrategy(deps);
  return {
    run: strategy,
    purgeExpired: () => purgeExpiredIdempotencyRecords(deps),
  };
}

/**
 * PostgreSQL (several instances, many connections): the key is claimed by a committed `in_progress` row before
 * any work, so a duplicate on any instance sees the claim; the result replaces the claim in the operation's
 * transaction.
 */
function claimingStrategy({ db, clock }: IdempotencyDeps): Idempotency['run'] {
  async function claim(call: IdempotentCall, key: string, fingerprint: string): Promise<StoredResponse | null> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const now = clock.now();
      const claimRow = {
        fingerprint,
        state: 'in_progress',
        response_status: null,
        response_body: null,
        request_id: call.requestId,
        created_at: now,
        locked_until: now + IDEMPOTENCY_LOCK_MS,
      };
      const inserted = await db
        .insertInto('idempotency_records')
        .values({ scope: call.scope, key, ...claimRow })
        .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return null;

      const existing = await findRecord(db, call.scope, key);
      if (!existing) continue;
      const verdict = judgeExisting(existing, fingerprint, now);
      if (verdict !== 'take-over') return verdict;
      // Take over only if nobody else did first.
      const taken = await db
        .updateTable('idempotency_records')
        .set(claimRow)
        .where('scope', '=', call.scope)
        .where('key', '=', key)
        .where('request_id', '=', existing.request_id)
        .where('created_at', '=', existing.created_at)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return null;
    }
    throw inProgress();
  }

  async function complete(
    executor: Transaction<Database> | Db,
    call: IdempotentCall,
    key: string,
    response: StoredResponse,
  ): Promise<void> {
    const result = await executor
      .updateTable('idempotency_records')
      .set({
        state: 'completed',
        response_status: response.status,
        response_body: JSON.stringify(response.body),
        locked_until: 0,
      })
      .where('scope', '=', call.scope)
      .where('key', '=', key)
      .where('request_id', '=', call.requestId)
      .where('state', '=', 'in_progress')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      // The claim was taken over (this request outlived its lock): undo the effect rather than apply it twice.
      throw new AppError('idempotency_request_in_progress', 'This request took too long and was superseded; retry.');
    }
  }

  return async (call, operation) => {
    const key = validateIdempotencyKey(call.key);
    const replay = await claim(call, key, fingerprintOf(call));
    if (replay) return { response: replay, replayed: true };
    try {
      const response = await db.transaction().execute(async (trx) => {
        const result = await operation(trx);
        await complete(trx, call, key, result);
        return result;
      });
      return { response, replayed: false };
    } catch (error) {
      const failure = storableFailure(error, call.requestId);
      if (failure) {
        await complete(db, call, key, failure);
        return { response: failure, replayed: false };
      }
      if (!(error instanceof AppError && error.code === 'idempotency_request_in_progress')) {
        await db
          .deleteFrom('idempotency_records')
          .where('scope', '=', call.scope)
          .where('key', '=', key)
          .where('request_id', '=', call.requestId)
          .where('state', '=', 'in_progress')
          .execute()
          .catch(() => undefined);
      }
      throw error;
    }
  };
}

/**
 * SQLite (one writer): keys in flight are tracked in memory, so a duplicate gets 409 at once; the lookup, the
 * operation and the stored result run as one job of the group commit, inside a savepoint of their own.
 */
function batchedStrategy({ db, clock }: IdempotencyDeps): Idempotency['run'] {
  const batcher = new WriteBatcher(db);
  const inFlight = new Map<string, string>();

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
    await sql`savepoint idempotent_operation`.execute(trx);
    try {
      response = await operation(trx);
      await sql`release savepoint idempotent_operation`.execute(trx);
    } catch (error) {
      await sql`rollback to savepoint idempotent_operation`.execute(trx);
      await sql`release savepoint idempotent_operation`.execute(trx);
      const failure = storableFailure(error, call.requestId);
      if (!failure) throw error;
      response = failure;
    }
    const record = {
      fingerprint,
      state: 'completed',
      response_status: response.status,
      response_body: JSON.stringify(response.body),
      request_id: call.requestId,
      created_at: now,
      locked_until: 0,
    };
    await trx
      .insertInto('idempotency_records')
      .values({ scope: call.scope, key, ...record })
      .onConflict((oc) => oc.columns(['scope', 'key']).doUpdateSet(record))
      .execute();
    return { response, replayed: false };
  }

  return async (call, operation) => {
    const key = validateIdempotencyKey(call.key);
    const fingerprint = fingerprintOf(call);
    const flightKey = `${call.scope}\n${key}`;
    const flying = inFlight.get(flightKey);
    if (flying !== undefined) throw flying === fingerprint ? inProgress() : reused();
    inFlight.set(flightKey, fingerprint);
    try {
      return await batcher.submit((trx) => job(trx, call, key, fingerprint, operation));
    } finally {
      inFlight.delete(flightKey);
    }
  };
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
  if (!request.actor) throw new AppError('unauthenticated', 'A valid bearer credential is required.');
  const rawKey = request.headers['idempotency-key'];
  const outcome = await idempotency.run(
    {
      scope: idempotencyScope(request.actor),
      key: Array.isArray(rawKey) ? rawKey.join(', ') : rawKey,
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
      body: request.body,
      requestId: request.id,
    },
    operation,
  );
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.response.status).send(outcome.response.body);
}
