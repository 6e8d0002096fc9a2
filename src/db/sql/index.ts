/**
 * The hot paths' statements by name: the values each takes (positional, in order), the rows it returns, and how
 * one runs. Their text is in `sqlite.ts` and `postgres.ts`, one module per store, and in the committed snapshots
 * under `sql/` at the root of the repository. Both stores' texts of a statement take the same values: SQLite's
 * `?` take them in order, PostgreSQL's `$n` name them by position (and may name one twice).
 */
import { CompiledQuery, PostgresAdapter, type RawBuilder, type Selectable } from 'kysely';
import type { Executor, ShiftTable, WorkspaceTable } from '../types.ts';
import type { IntakeStatements } from './applications.ts';
import { POSTGRES_STATEMENTS } from './postgres.ts';
import { SQLITE_STATEMENTS } from './sqlite.ts';

export { POSTGRES_STATEMENTS, SQLITE_STATEMENTS };

/** A statement's values and the row it returns. */
export interface Statement<Params extends readonly unknown[], Row> {
  readonly params: Params;
  readonly row: Row;
}

/** The key and application values an API key actor is built from (`findApiKey`). */
export interface ApiKeyRow {
  readonly key_id: string;
  readonly environment: string;
  readonly scopes: string;
  readonly revoked: number;
  readonly expires_at: number | null;
  readonly application_id: string;
  readonly application_name: string;
  readonly workspace_id: string;
  readonly approved: number;
  readonly features: string;
  readonly allowed_universe_ids: string;
}

/** A key's stored result, if any, and whether this request holds the key (PostgreSQL: its advisory lock). */
export interface IdempotencyKeyRow {
  /** True (PostgreSQL) or 1 (SQLite) when the key is this request's to run. */
  readonly locked: boolean | number;
  readonly fingerprint: string | null;
  readonly response_status: number | null;
  readonly response_body: string | null;
  readonly created_at: number | null;
}

export type ShiftRow = ShiftTable;

export type WorkspaceRow = Selectable<WorkspaceTable>;

/** A staff member with their department's fields (null without one). */
export interface StaffProfileRow {
  readonly id: string;
  readonly workspace_id: string;
  readonly display_name: string;
  readonly game_user_id: string;
  readonly game_username: string;
  readonly chat_user_id: string | null;
  readonly rank: string | null;
  readonly status: string;
  readonly weekly_required_minutes: number | null;
  readonly department_id: string | null;
  readonly department_name: string | null;
  readonly department_weekly_required_minutes: number | null;
}

/** An approved inactivity notice of a staff member. */
export interface NoticeRow {
  readonly id: string;
  readonly staff_id: string;
  readonly starts_at: number;
  readonly ends_at: number;
  readonly reason: string;
}

/** A workspace's enabled endpoint, with the fields of one staff member. */
export interface EndpointWithStaffRow {
  readonly id: string;
  readonly workspace_id: string;
  readonly events: string;
  readonly display_name: string;
  readonly game_user_id: string;
}

/** A workspace row as a totals writer locked it. */
export interface LockedWorkspaceRow {
  readonly id: string;
  readonly timezone: string;
  readonly activity_version: number;
}

export interface ClaimedDeliveryRow {
  readonly id: string;
  readonly event_id: string;
  readonly endpoint_id: string;
  readonly attempts: number;
  readonly expires_at: number;
  readonly url: string;
  readonly secret: string;
  readonly body: string;
}

export interface RecordedHeartbeatRow {
  readonly id: string;
  readonly last_heartbeat_at: number;
}

/** What a heartbeat records: the game server's instant, the server clock's, and the liveness cutoff. */
type HeartbeatValues = [recordedAt: number, seenAt: number];

/**
 * A key credential's values (see src/keys/credential.ts): the key and its application as they stood when the key
 * was last looked up, and the instant it is checked at.
 */
export type CredentialValues = [
  keyHash: string,
  keyId: string,
  environment: string,
  scopes: string,
  now: number,
  applicationId: string,
  applicationName: string,
  workspaceId: string,
  features: string,
  allowedUniverseIds: string,
];

/** A stored result's values. */
type ResultValues = [
  scope: string,
  key: string,
  fingerprint: string,
  status: number,
  body: string,
  requestId: string,
  now: number,
];

/** Statements both stores run, with the same values. */
export interface SharedStatements extends IntakeStatements {
  /** The key row and its application, by the key's hash: every request with an API key. */
  findApiKey: Statement<[keyHash: string], ApiKeyRow>;

  /** A workspace by id: most requests read it (settings, chat binding, activity version). */
  findWorkspace: Statement<[id: string], WorkspaceRow>;
  /** A staff member of the workspace by game user id, with their department. */
  findStaffByGameUser: Statement<[workspaceId: string, gameUserId: string], StaffProfileRow>;
  /** The workspace's first-created staff member linked to the chat user, with their department. */
  findStaffByChatUser: Statement<[workspaceId: string, chatUserId: string], StaffProfileRow>;
  /** Staff members by id (a JSON array), with their departments, whatever their workspace. */
  findStaffProfiles: Statement<[idsJson: string], StaffProfileRow>;
  /**
   * Approved inactivity notices of staff members (their ids a JSON array) overlapping `[start, end)`: a
   * leaderboard page's, or one staff member's for the summary.
   */
  findApprovedNotices: Statement<[staffIdsJson: string, start: number, end: number], NoticeRow>;

  /** The key's stored result (one row, its columns null when there is none), taking the key on PostgreSQL. */
  takeIdempotencyKey: Statement<[scope: string, key: string], IdempotencyKeyRow>;
  /**
   * Stores a request's result under its key, replacing a record that has expired (created at or before
   * `expiredBefore`); no row when the key has a live record (a duplicate completed it meanwhile).
   */
  storeIdempotentResult: Statement<[...ResultValues, expiredBefore: number], { readonly key: string }>;

  /** Starts a shift unless its staff member has an active one for the application and environment. */
  startShift: Statement<
    [
      id: string,
      workspaceId: string,
      applicationId: string,
      environment: string,
      staffId: string,
      universeId: string,
      placeId: string,
      serverId: string,
      startedAt: number,
      lastHeartbeatAt: number,
      lastSeenAt: number,
      createdAt: number,
    ],
    { readonly id: string }
  >;
  /**
   * Locks the shifts (their ids a JSON array) in id order on PostgreSQL; on SQLite, which needs no row locks,
   * reads them.
   */
  lockShifts: Statement<[idsJson: string], { readonly id: string }>;
  /** The staff member's active shift for the application and environment, if any. */
  findActiveShift: Statement<[applicationId: string, environment: string, staffId: string], ShiftRow>;
  /**
   * A heartbeat on one live shift of the caller, started by `recordedAt`, of `serverId` when one is given:
   * `last_heartbeat_at` only moves forward.
   */
  recordHeartbeat: Statement<
    [
      ...HeartbeatValues,
      id: string,
      staleBefore: number,
      applicationId: string,
      environment: string,
      notBefore: number,
      serverId: string | null,
    ],
    RecordedHeartbeatRow
  >;
  /** The same for many shifts of one server (their ids a JSON array). */
  recordHeartbeats: Statement<
    [
      ...HeartbeatValues,
      idsJson: string,
      staleBefore: number,
      applicationId: string,
      environment: string,
      notBefore: number,
      serverId: string,
    ],
    RecordedHeartbeatRow
  >;
  /** Completes one live shift of the caller with its own end (a stop), ending no earlier than its start. */
  stopShift: Statement<
    [
      endedAt: number,
      endReason: string,
      id: string,
      staleBefore: number,
      applicationId: string,
      environment: string,
      notBefore: number,
    ],
    ShiftRow
  >;

  /**
   * Moves the workspaces (their ids a JSON array) to their next activity version, locking their rows (see
   * src/features/totals/repository.ts, lockWorkspacesForTotals).
   */
  lockWorkspacesForTotals: Statement<[idsJson: string], LockedWorkspaceRow>;
  /**
   * Adds changes to the running totals (a JSON array of rows of `activity_totals`, each with the amounts to add),
   * creating the rows missing, in the array's order (the table's key order: concurrent writers lock rows alike).
   */
  addToTotals: Statement<[rowsJson: string], never>;

  /** Raises each workspace and environment's longest completed shift (a JSON array of rows of `activity_totals_extent`). */
  raiseLongestShifts: Statement<[rowsJson: string], never>;
  /** Records which staff members a workspace's activity version changed (a JSON array of rows of `activity_changes`). */
  insertActivityChanges: Statement<[rowsJson: string], never>;

  /**
   * A workspace's enabled webhook endpoints, each with one staff member's fields: one read for a shift's event (no
   * row when the workspace has no endpoint).
   */
  findEndpointsWithStaff: Statement<[staffId: string, workspaceId: string], EndpointWithStaffRow>;
  /** The workspaces' (a JSON array of ids) enabled webhook endpoints and the events each wants (a JSON array). */
  findEnabledEndpoints: Statement<
    [workspaceIdsJson: string],
    { readonly id: string; readonly workspace_id: string; readonly events: string }
  >;
  /** Records webhook events (a JSON array of rows of `webhook_events`). */
  insertWebhookEvents: Statement<[rowsJson: string], never>;
  /** Records pending deliveries (a JSON array of rows of `webhook_deliveries`, without claim or attempt columns). */
  insertWebhookDeliveries: Statement<[rowsJson: string], never>;
  /** Whether any pending delivery is due and unclaimed at `now`, but for the endpoints listed (a JSON array). */
  findDueDelivery: Statement<[now: number, now: number, saturatedEndpointsJson: string], { readonly id: string }>;
  /**
   * Pending deliveries due and unclaimed at `now`, oldest due first, but for the endpoints listed; on PostgreSQL
   * locked, skipping those another instance is claiming.
   */
  findDueDeliveries: Statement<
    [now: number, now: number, saturatedEndpointsJson: string, limit: number],
    { readonly id: string; readonly endpoint_id: string }
  >;
  /** Marks deliveries (a JSON array of ids) claimed by `owner` until `claimedUntil`. */
  claimDeliveries: Statement<[claimedUntil: number, owner: string, idsJson: string], never>;
  /** Claimed deliveries (a JSON array of ids) with what sending them needs. */
  findClaimedDeliveries: Statement<[idsJson: string], ClaimedDeliveryRow>;
  /** Records finished attempts (a JSON array of rows of `webhook_attempts`). */
  insertWebhookAttempts: Statement<[rowsJson: string], never>;
  /**
   * Applies attempts' results to their deliveries (a JSON array of `id`, `owner`, `outcome`, `attempt`,
   * `next_attempt_at`, `status`, `duration_ms`, `excerpt`, `error`, `finished_at`, `delivered_at`). A delivery no
   * longer claimed by the result's owner (given back, claimed by another instance, redelivered) is left alone.
   */
  recordDeliveryResults: Statement<[resultsJson: string], never>;
}

/**
 * The values of a heartbeat whose answer is known before it runs (it records exactly `recordedAt`), the credential
 * of the key it acts for, and its idempotency key.
 */
export type KnownHeartbeatValues = [
  ...HeartbeatValues,
  id: string,
  staleBefore: number,
  notAfter: number,
  applicationId: string,
  environment: string,
  notBefore: number,
  serverId: string | null,
  ...CredentialValues,
  scope: string,
  key: string,
];

/**
 * PostgreSQL runs a known heartbeat and its stored result as one statement; SQLite, whose UPDATE cannot feed an
 * INSERT, runs `recordKnownHeartbeat` and then `storeIdempotentResult`, in one job of its group commit.
 */
export interface PostgresStatements extends SharedStatements {
  /**
   * For the rest of the transaction, plans neither sort, scan whole tables nor hash or merge joins, whatever the
   * tables' statistics say: `findDueDeliveries` walks the due index in order and stops at its limit, and the
   * statements that name deliveries by id (claiming them, reading what was claimed, recording results) find each
   * by its primary key (see `claimDueDeliveries` and `recordAttempts`).
   */
  useOutboxIndexes: Statement<
    [],
    { readonly sort: string; readonly seqscan: string; readonly hashjoin: string; readonly mergejoin: string }
  >;
  recordKnownHeartbeatWithResult: Statement<
    [...KnownHeartbeatValues, fingerprint: string, status: number, body: string, requestId: string, now: number],
    { readonly key: string }
  >;
}

export interface SqliteStatements extends SharedStatements {
  recordKnownHeartbeat: Statement<KnownHeartbeatValues, { readonly id: string }>;
}

export type StatementTexts<S> = { readonly [N in keyof S]: string };

/** Whether `db` is a PostgreSQL store (or a transaction of one). */
function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Every named statement, of either store. */
type AnyStatements = PostgresStatements & SqliteStatements;

/**
 * Runs the statement named `name` with `params` on `db`, in the text of the store `db` belongs to; its rows. A
 * statement only one store has (PostgresStatements, SqliteStatements) is refused on the other.
 */
export async function runStatement<N extends keyof AnyStatements>(
  db: Executor,
  name: N,
  params: AnyStatements[N]['params'],
): Promise<AnyStatements[N]['row'][]> {
  const texts: Readonly<Record<string, string | undefined>> = isPostgres(db) ? POSTGRES_STATEMENTS : SQLITE_STATEMENTS;
  const text = texts[name];
  if (text === undefined) throw new Error(`this store has no statement ${name}`);
  const { rows } = await db.executeQuery<AnyStatements[N]['row']>(CompiledQuery.raw(text, [...params]));
  return rows;
}

/** The most query shapes `runShaped` remembers (per process); beyond them, new shapes run unnamed. */
const MAX_SHAPES = 256;
const shapes = new Map<string, string>();

/**
 * The name a query text run by `runShaped` is prepared under on PostgreSQL (src/db/pg-dialect.ts), if it is one.
 */
export function shapeName(text: string): string | undefined {
  return shapes.get(text);
}

/**
 * Runs a query built per call whose text depends only on its shape (the number of periods and edges a report
 * reads, say), never on its values, and that has few shapes: on PostgreSQL each shape is then a named prepared
 * statement, parsed and planned once per connection like the named statements above (a report's union of reads
 * costs PostgreSQL more to plan than to run). SQLite keeps every statement prepared by its text anyway.
 */
export async function runShaped<R>(db: Executor, query: RawBuilder<R>): Promise<R[]> {
  const compiled = query.compile(db);
  if (isPostgres(db) && !shapes.has(compiled.sql) && shapes.size < MAX_SHAPES) {
    shapes.set(compiled.sql, `shape${shapes.size + 1}`);
  }
  const { rows } = await db.executeQuery(compiled);
  return rows;
}
