/**
 * The database could not be reached, or stopped answering: what an operation that needs it meets during a
 * restart, a crash, a partition or a failover. The HTTP layer answers it 503 `service_unavailable` with
 * `Retry-After` (docs/RELIABILITY.md, "When the database goes away"); nothing about it is the request's fault.
 */

/**
 * Why: a connection could not be opened (`connect`), an open one broke or was found broken (`connection_lost`), a
 * statement or a lock wait ran out of time (`timeout`), or the server said it is shutting down or starting
 * (`server_shutdown`).
 */
export const DATABASE_ERROR_KINDS = ['connect', 'connection_lost', 'timeout', 'server_shutdown'] as const;
export type DatabaseErrorKind = (typeof DATABASE_ERROR_KINDS)[number];

export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable';
  readonly kind: DatabaseErrorKind;
  /**
   * The connection broke while a transaction was committing: the server may or may not have committed it. A write
   * under an Idempotency-Key stores its result in the same transaction, so its retry with the same key replays the
   * result when it committed and runs it when it did not.
   */
  readonly outcomeUnknown: boolean;

  constructor(kind: DatabaseErrorKind, cause: unknown, outcomeUnknown = false) {
    super(`database unavailable (${kind}): ${messageOf(cause)}`, { cause });
    this.kind = kind;
    this.outcomeUnknown = outcomeUnknown;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function property(error: unknown, name: 'code' | 'message'): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value = (error as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** Socket errors of a connection being opened: nothing answers at the address. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);
/** Socket errors of an open connection. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'ERR_STREAM_DESTROYED']);

/** The messages node-postgres gives its own connection failures (they carry no code). */
const CONNECTION_MESSAGES: readonly [RegExp, DatabaseErrorKind][] = [
  [/^Query read timeout$/, 'timeout'],
  [/timeout exceeded when trying to connect|connection timeout|^timeout expired$/i, 'connect'],
  [/^Connection terminated|not queryable|^Connection closed|This socket has been ended/i, 'connection_lost'],
];

/**
 * What a failure of the database says about its reachability, or null when it is an answer about the statement
 * itself (a constraint, a syntax error, a deadlock that the write pipeline runs again).
 * - SQLSTATE class 08 (connection exception): the connection is gone;
 * - 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now: the server is going down or starting;
 * - 53300 too_many_connections: the server takes no more connections right now;
 * - 57014 query_canceled (statement_timeout), 55P03 lock_not_available, 25P03 idle_in_transaction_session_timeout:
 *   the statement, a lock wait or the transaction ran out of time.
 */
export function unavailability(error: unknown): DatabaseErrorKind | null {
  if (error instanceof DatabaseUnavailable) return error.kind;
  const code = property(error, 'code');
  if (code !== undefined) {
    if (code.startsWith('08')) return 'connection_lost';
    if (code === '57P01' || code === '57P02' || code === '57P03') return 'server_shutdown';
    if (code === '53300') return 'connect';
    if (code === '57014' || code === '55P03' || code === '25P03') return 'timeout';
    if (UNREACHABLE.has(code)) return 'connect';
    if (BROKEN.has(code)) return 'connection_lost';
  }
  const message = property(error, 'message') ?? '';
  for (const [pattern, kind] of CONNECTION_MESSAGES) if (pattern.test(message)) return kind;
  return null;
}

/**
 * Whether the connection that met `kind` is to be discarded rather than given back to the pool: all but a timeout
 * the server answered itself (statement_timeout, lock_timeout), after which the connection is usable again.
 */
export function breaksConnection(error: unknown, kind: DatabaseErrorKind): boolean {
  if (kind !== 'timeout') return true;
  const code = property(error, 'code');
  return code !== '57014' && code !== '55P03';
}

/** Where the counts below write their lines (the serving process's logger). */
export interface WarningLog {
  warn(object: object, message: string): void;
}

/** Lines of one kind written at most this often; the ones held back are counted in the next. */
const LOG_INTERVAL_MS = 1_000;

/**
 * The database failures a serving process met, by kind (for `/metrics`), each logged once as a warning: a broken
 * connection when it breaks, not again by every statement that finds it broken. During an outage every request may
 * meet one, so the lines of a kind are written at most once a second, with how many were held back since.
 */
export class UnavailabilityCounts {
  private readonly counts = new Map<DatabaseErrorKind, number>(DATABASE_ERROR_KINDS.map((kind) => [kind, 0]));
  private readonly lastLogged = new Map<DatabaseErrorKind, number>();
  private readonly heldBack = new Map<DatabaseErrorKind, number>();
  private log: WarningLog | undefined;

  /** Writes from now on to `log` (the logger is made after the store). */
  logTo(log: WarningLog): void {
    this.log = log;
  }

  readonly report = (kind: DatabaseErrorKind, error: unknown): void => {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    const now = Date.now();
    if (now - (this.lastLogged.get(kind) ?? -Infinity) < LOG_INTERVAL_MS) {
      this.heldBack.set(kind, (this.heldBack.get(kind) ?? 0) + 1);
      return;
    }
    this.lastLogged.set(kind, now);
    const heldBack = this.heldBack.get(kind) ?? 0;
    this.heldBack.set(kind, 0);
    this.log?.warn({ kind, error: messageOf(error), ...(heldBack > 0 ? { heldBack } : {}) }, 'database unavailable');
  };

  snapshot(): Readonly<Record<DatabaseErrorKind, number>> {
    return Object.fromEntries(this.counts) as Record<DatabaseErrorKind, number>;
  }
}
