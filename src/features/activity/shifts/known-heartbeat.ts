/**
 * The known heartbeat's statements (docs/ARCHITECTURE.md, "A heartbeat"): a heartbeat whose answer is known before
 * it runs is recorded with its stored result, both or neither, in one statement on PostgreSQL (many of them at
 * once when they arrive together) and in one job of the group commit on SQLite.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { CompiledOnce, type NamedTerm } from '../../../db/compiled.ts';
import { jsonRecordset, type RecordsetColumnType } from '../../../db/dialect.ts';
import type { Database, SqlTerm } from '../../../db/types.ts';
import type { StoredResult } from '../../../idempotency/index.ts';
import { applyWithResults, idempotencyKeyLock, noStoredResult } from '../../../idempotency/records.ts';
import { credentialHolds, type CredentialTerms } from '../../../auth/keys/api-key.ts';
import type { KeyCredential } from '../../../shared/actor.ts';
import type { Heartbeat } from './repository.ts';
import { heartbeatAccepted } from './rules.ts';
import { compareText } from '../../../shared/text.ts';

/** A heartbeat whose answer is known before it runs (see recordKnownHeartbeat): its shift and its API key's credential. */
export interface KnownHeartbeat extends Heartbeat {
  readonly id: string;
  readonly credential: KeyCredential;
}

/**
 * PostgreSQL's unique_violation (a result of a key committed after the statement's snapshot) or deadlock_detected
 * (see recordKnownHeartbeatsWithResults): the statement was undone, and each heartbeat runs the full operation.
 */
function undoneStatement(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '23505' || code === '40P01';
}

/** A known heartbeat's values in its statement: bound (one heartbeat), or columns of the rows of many. */
interface KnownHeartbeatTerms {
  readonly id: SqlTerm<string>;
  readonly recordedAt: SqlTerm<number>;
  readonly seenAt: SqlTerm<number>;
  readonly staleBefore: SqlTerm<number>;
  readonly applicationId: SqlTerm<string>;
  readonly environment: SqlTerm<string>;
  readonly serverId: SqlTerm<string | null>;
  readonly credential: CredentialTerms;
  /** The scope and key its result is stored under, and when. */
  readonly scope: SqlTerm<string>;
  readonly key: SqlTerm<string>;
  readonly now: SqlTerm<number>;
}

/**
 * The update of a known heartbeat: exactly `recordedAt`, so only when no later heartbeat is recorded, on a shift
 * that accepts it (rules.ts, heartbeatAccepted); only while the credential of the key it acts for holds, `keyFree`
 * holds (PostgreSQL: the key's lock) and no result of the key is stored. `from` names the rows of many heartbeats
 * (their terms are its columns).
 */
function knownHeartbeatUpdate(
  t: KnownHeartbeatTerms,
  clauses: { readonly from?: RawBuilder<unknown>; readonly keyFree?: RawBuilder<boolean>; readonly returning: RawBuilder<unknown> },
): RawBuilder<unknown> {
  const { from, keyFree, returning } = clauses;
  const accepted = heartbeatAccepted(
    { ...t, server: { ifNamed: t.serverId } },
    { indent: '    ', onlyIfLatest: true },
  );
  return sql`update shifts
  set last_heartbeat_at = ${t.recordedAt}, last_seen_at = ${t.seenAt}${from === undefined ? sql`` : sql`
  from ${from}`}
  where id = ${t.id}
    and ${accepted}
    and ${credentialHolds(t.credential, t.now)}${keyFree === undefined ? sql`` : sql`
    and ${keyFree}`}
    and ${noStoredResult(t.scope, t.key)}
  returning ${returning}`;
}

/** A known heartbeat and the result to store with it. */
export interface KnownHeartbeatWrite {
  readonly known: KnownHeartbeat;
  readonly result: StoredResult;
}

/** recordKnownHeartbeat's statement, its values bound by name. */
const KNOWN_HEARTBEAT = new CompiledOnce<KnownHeartbeatRow, { id: string }>((term) =>
  knownHeartbeatUpdate(knownHeartbeatTerms(term), { returning: sql`id` }),
);

/**
 * A heartbeat whose answer is known before it runs; whether it applied. It moves `last_heartbeat_at` to exactly
 * `recordedAt`, so it applies only when no later heartbeat is recorded; and only while the key is free (no result
 * stored under it) and the credential of the API key it acts for still holds. SQLite, whose UPDATE cannot feed an
 * INSERT: the update alone, in the job of the group commit that stores `result` after it (src/idempotency/index.ts,
 * applyKnown); the process holds the key in memory meanwhile.
 */
export async function recordKnownHeartbeat(
  trx: Transaction<Database>,
  known: KnownHeartbeat,
  result: StoredResult,
): Promise<boolean> {
  return (await KNOWN_HEARTBEAT.rows(trx, knownHeartbeatRow({ known, result }))).length > 0;
}

/**
 * PostgreSQL: the known heartbeat (as recordKnownHeartbeat) and its stored result, both or neither, in one
 * statement outside any explicit transaction; whether it applied. The update applies only while the key's lock is
 * free and no result of the key is visible; a result committed after the statement's snapshot makes the insert a
 * unique violation, which undoes the whole statement. With values bound, this costs the server less than the
 * statement of many (recordKnownHeartbeatsWithResults) carrying one: the form for a heartbeat that goes alone.
 */
export async function recordKnownHeartbeatWithResult(db: Kysely<Database>, write: KnownHeartbeatWrite): Promise<boolean> {
  const { scope, key, fingerprint, status, body, requestId, now } = write.result;
  const terms = knownHeartbeatTerms(boundTerm(knownHeartbeatRow(write)));
  const update = knownHeartbeatUpdate(terms, { keyFree: idempotencyKeyLock(scope, key), returning: sql`id` });
  const result = sql`${scope}::text, ${key}::text, ${fingerprint}::text, ${status}::integer, ${body}::text, ${requestId}::text, ${now}::bigint`;
  const [applied] = await storedWithHeartbeat(db, update, result, [write]);
  return applied === true;
}

/**
 * Runs `update` (of known heartbeats) and stores, for each row it returns, the result `result` selects from that
 * row (scope, key, fingerprint, status, body, request id and instant, in that order): whether each of `writes`
 * applied. A statement undone (see undoneStatement) applied none: each runs the full operation, which replays,
 * refuses or applies it.
 */
async function storedWithHeartbeat(
  db: Kysely<Database>,
  update: RawBuilder<unknown>,
  result: RawBuilder<unknown>,
  writes: readonly KnownHeartbeatWrite[],
): Promise<boolean[]> {
  const query = applyWithResults(update, result);
  try {
    const stored = new Set((await query.execute(db)).rows.map((row) => `${row.scope}\n${row.key}`));
    return writes.map(({ result }) => stored.has(`${result.scope}\n${result.key}`));
  } catch (error) {
    if (undoneStatement(error)) return writes.map(() => false);
    throw error;
  }
}

/** The columns of the rows of many known heartbeats (`h`), named apart from the tables' columns. */
const KNOWN_HEARTBEAT_COLUMNS = {
  hb_id: 'text',
  hb_recorded_at: 'bigint',
  hb_seen_at: 'bigint',
  hb_stale_before: 'bigint',
  hb_application_id: 'text',
  hb_environment: 'text',
  hb_server_id: 'text',
  hb_key_hash: 'text',
  hb_key_id: 'text',
  hb_key_environment: 'text',
  hb_scopes: 'text',
  hb_key_application_id: 'text',
  hb_application_name: 'text',
  hb_workspace_id: 'text',
  hb_features: 'text',
  hb_allowed_universe_ids: 'text',
  hb_scope: 'text',
  hb_key: 'text',
  hb_fingerprint: 'text',
  hb_status: 'integer',
  hb_body: 'text',
  hb_request_id: 'text',
  hb_now: 'bigint',
} as const satisfies Readonly<Record<string, RecordsetColumnType>>;

type KnownHeartbeatColumn = keyof typeof KNOWN_HEARTBEAT_COLUMNS;

/** A known heartbeat's values, by the names of its columns. */
type KnownHeartbeatRow = Readonly<Record<KnownHeartbeatColumn, string | number | null>>;

function knownHeartbeatRow({ known, result }: KnownHeartbeatWrite): KnownHeartbeatRow {
  const c = known.credential;
  return {
    hb_id: known.id,
    hb_recorded_at: known.recordedAt,
    hb_seen_at: known.seenAt,
    hb_stale_before: known.staleBefore,
    hb_application_id: known.owner.applicationId,
    hb_environment: known.owner.environment,
    hb_server_id: known.serverId,
    hb_key_hash: c.keyHash,
    hb_key_id: c.keyId,
    hb_key_environment: c.environment,
    hb_scopes: c.scopes,
    hb_key_application_id: c.applicationId,
    hb_application_name: c.applicationName,
    hb_workspace_id: c.workspaceId,
    hb_features: c.features,
    hb_allowed_universe_ids: c.allowedUniverseIds,
    hb_scope: result.scope,
    hb_key: result.key,
    hb_fingerprint: result.fingerprint,
    hb_status: result.status,
    hb_body: result.body,
    hb_request_id: result.requestId,
    hb_now: result.now,
  };
}

/**
 * The rows go in shift id order, the order in which the update (joined from them by primary key) locks the shifts,
 * as every writer of several shifts locks them (repository.ts, lockShifts): two statements that meet on shifts
 * then wait for each other instead of deadlocking. Should PostgreSQL still find a deadlock, the statement is undone
 * like one that meets a committed result.
 */
function byShift(a: KnownHeartbeatWrite, b: KnownHeartbeatWrite): number {
  return compareText(a.known.id, b.known.id);
}

/** A column of the rows of many known heartbeats, as a term. */
function column<T>(name: KnownHeartbeatColumn): RawBuilder<T> {
  return sql.raw<T>(`h.${name}`);
}

/** The values of one known heartbeat, each bound as a term. */
function boundTerm(row: KnownHeartbeatRow): NamedTerm<KnownHeartbeatRow> {
  return <T>(name: KnownHeartbeatColumn) => sql<T>`${row[name]}`;
}

/** A known heartbeat's terms, each its value named in `term` (a column, bound, or compiled once). */
function knownHeartbeatTerms(term: NamedTerm<KnownHeartbeatRow>): KnownHeartbeatTerms {
  return {
    id: term('hb_id'),
    recordedAt: term('hb_recorded_at'),
    seenAt: term('hb_seen_at'),
    staleBefore: term('hb_stale_before'),
    applicationId: term('hb_application_id'),
    environment: term('hb_environment'),
    serverId: term('hb_server_id'),
    credential: {
      keyHash: term('hb_key_hash'),
      keyId: term('hb_key_id'),
      environment: term('hb_key_environment'),
      scopes: term('hb_scopes'),
      applicationId: term('hb_key_application_id'),
      applicationName: term('hb_application_name'),
      workspaceId: term('hb_workspace_id'),
      features: term('hb_features'),
      allowedUniverseIds: term('hb_allowed_universe_ids'),
    },
    scope: term('hb_scope'),
    key: term('hb_key'),
    now: term('hb_now'),
  };
}

/**
 * PostgreSQL: known heartbeats (each as recordKnownHeartbeatWithResult) and their stored results, each both or
 * neither, in one statement outside any explicit transaction; whether each applied. No two of them may change one
 * shift or store under one key (a statement changes a row once).
 */
export async function recordKnownHeartbeatsWithResults(
  db: Kysely<Database>,
  writes: readonly KnownHeartbeatWrite[],
): Promise<boolean[]> {
  const terms = knownHeartbeatTerms(column);
  const update = knownHeartbeatUpdate(terms, {
    from: jsonRecordset(db, [...writes].sort(byShift).map(knownHeartbeatRow), 'h', KNOWN_HEARTBEAT_COLUMNS),
    keyFree: idempotencyKeyLock(terms.scope, terms.key),
    returning: sql`h.hb_scope, h.hb_key, h.hb_fingerprint, h.hb_status, h.hb_body, h.hb_request_id, h.hb_now`,
  });
  const result = sql`hb_scope, hb_key, hb_fingerprint, hb_status, hb_body, hb_request_id, hb_now`;
  return storedWithHeartbeat(db, update, result, writes);
}

