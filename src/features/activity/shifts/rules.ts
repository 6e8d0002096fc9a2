/**
 * Shift time rules. Accounting uses the game server's times (startedAt, recordedAt, endedAt);
 * liveness uses the server clock (`last_seen_at`, the instant the last start or heartbeat was received).
 */
import { sql, type RawBuilder } from 'kysely';
import type { SqlTerm } from '../../../db/types.ts';
import { validationError } from '../../../shared/errors.ts';
import { parseIsoDateTime } from '../periods/periods.ts';
import { isActive } from './status.ts';
import { DAY_MS } from '../../../shared/clock.ts';

/** A start time may lie at most this far in the past. */
const MAX_START_AGE_MS = DAY_MS;
/** A game-server time may lie at most this far ahead of the server clock. */
const MAX_AHEAD_MS = 60 * 1000;
/** The sweep runs at most this far apart, and at least this often relative to the timeout. */
const MAX_SWEEP_INTERVAL_MS = 30 * 1000;
const MIN_SWEEP_INTERVAL_MS = 1000;

/**
 * An active shift last seen before this instant has timed out: nothing was received for more than
 * `timeoutSeconds` (a shift seen exactly `timeoutSeconds` ago is still live).
 */
export function staleBefore(now: number, timeoutSeconds: number): number {
  return now - timeoutSeconds * 1000;
}

type Liveness = { readonly status: string; readonly last_seen_at: number };

/** A live shift: active, and seen at or after the liveness cutoff (`staleBefore`). */
export function isLive(shift: Liveness, cutoff: number): boolean {
  return isActive(shift) && shift.last_seen_at >= cutoff;
}

/** A timed-out shift: active, but not live. */
export function isStale(shift: Liveness, cutoff: number): boolean {
  return isActive(shift) && !isLive(shift, cutoff);
}

/**
 * How a query finds the shifts it tests: by primary key (`by id`) or among the active ones (`scan`, through the
 * partial indexes of active shifts). By id, "active and live" is one expression, `(case when status = 'active'
 * then last_seen_at end) >= cutoff`, on purpose: with the bare `status = 'active'` PostgreSQL's planner may read
 * the shift through a partial index of active shifts (whose predicate that condition proves) instead of the primary
 * key, scanning every active shift whenever its statistics undercount them, which they usually do
 * (test/features/activity/shifts/plans.test.ts). The literal `'active'` (never a value) lets both stores match the partial
 * indexes' predicates.
 */
export type ShiftLookup = 'by id' | 'scan';

function seen(operator: '>=' | '<', cutoff: SqlTerm<number>, lookup: ShiftLookup, alias: string | undefined): RawBuilder<boolean> {
  const column = (name: string) => sql.raw(alias === undefined ? name : `${alias}.${name}`);
  const op = sql.raw(operator);
  return lookup === 'by id'
    ? sql<boolean>`(case when ${column('status')} = 'active' then ${column('last_seen_at')} end) ${op} ${cutoff}`
    : sql<boolean>`(${column('status')} = 'active' and ${column('last_seen_at')} ${op} ${cutoff})`;
}

/** SQL: the shift is live (isLive). `alias` is the shifts table's in the query, if it has one. */
export function liveShift(cutoff: SqlTerm<number>, lookup: ShiftLookup, alias?: string): RawBuilder<boolean> {
  return seen('>=', cutoff, lookup, alias);
}

/** SQL: the shift has timed out (isStale). */
export function timedOutShift(cutoff: number, lookup: ShiftLookup, alias?: string): RawBuilder<boolean> {
  return seen('<', cutoff, lookup, alias);
}

/**
 * The acceptance rule of a heartbeat (and, but for the server, of a stop): it applies to a shift only when the
 * shift is the caller's own (its application and environment), active, live (not timed out), of the game server
 * the heartbeat names (any when it names none) and started at or before the heartbeat's instant. Written twice, in
 * two forms that say the same: refusalFor says which part fails, in the order the answers rank them (unknown,
 * completed, timed out, another server's, before the start), for a shift already read; heartbeatAccepted is the
 * same rule as the conditions of the statements that record heartbeats without reading the shift first.
 * `timed_out`: the shift is to be completed, then answered as not active.
 */
export type ShiftRefusal = 'not_found' | 'shift_not_active' | 'timed_out' | 'server_mismatch' | 'before_start';

/** A heartbeat or stop, as the acceptance rule judges it. */
export interface ShiftWrite {
  /** Its game-server instant (`recordedAt`, `endedAt`). */
  readonly at: number;
  /** The server a heartbeat names, if any (a stop names none). */
  readonly serverId: string | null;
  readonly staleBefore: number;
}

/** What of a shift the acceptance rule reads. */
type Accepting = Liveness & { readonly server_id: string; readonly started_at: number };

/**
 * Why `write` is refused for `shift` (the caller's own, or undefined when it has none with that id), by the
 * acceptance rule (ShiftRefusal); null when it applies.
 */
export function refusalFor(shift: Accepting | undefined, write: ShiftWrite): ShiftRefusal | null {
  if (!shift) return 'not_found';
  if (!isActive(shift)) return 'shift_not_active';
  if (isStale(shift, write.staleBefore)) return 'timed_out';
  if (write.serverId !== null && write.serverId !== shift.server_id) return 'server_mismatch';
  if (write.at < shift.started_at) return 'before_start';
  return null;
}

/** The game server a heartbeat names: a batch's, always one (`exactly`), or a single one's, null for any (`ifNamed`). */
export type HeartbeatServer = { readonly exactly: SqlTerm<string> } | { readonly ifNamed: SqlTerm<string | null> };

/** A heartbeat's values in the acceptance rule's conditions: bound, or columns of the rows of many. */
export interface HeartbeatTerms {
  readonly recordedAt: SqlTerm<number>;
  readonly staleBefore: SqlTerm<number>;
  readonly applicationId: SqlTerm<string>;
  readonly environment: SqlTerm<string>;
  readonly server: HeartbeatServer;
}

/**
 * SQL: the acceptance rule (ShiftRefusal) holds for the shift a statement looks up by id, so refusalFor would
 * return null. `onlyIfLatest` adds that no later heartbeat is recorded (a heartbeat that moves `last_heartbeat_at`
 * to exactly its instant); `indent` lays each condition on a line of its own, as the statement around it.
 */
export function heartbeatAccepted(t: HeartbeatTerms, layout: { readonly indent: string; readonly onlyIfLatest?: boolean }): RawBuilder<boolean> {
  const and = sql.raw(`\n${layout.indent}and `);
  const latest = layout.onlyIfLatest === true ? sql`${and}last_heartbeat_at <= ${t.recordedAt}` : sql``;
  const server =
    'exactly' in t.server ? sql`server_id = ${t.server.exactly}` : sql`server_id = coalesce(${t.server.ifNamed}, server_id)`;
  return sql<boolean>`${liveShift(t.staleBefore, 'by id')}${latest}${and}application_id = ${t.applicationId} and environment = ${t.environment} and started_at <= ${t.recordedAt}${and}${server}`;
}

/** Whole seconds from `from` to `to`, rounded down; never negative. */
export function wholeSecondsBetween(from: number, to: number): number {
  return Math.max(0, Math.floor((to - from) / 1000));
}

/** How often each instance sweeps: a fifth of the timeout, at most 30 s, at least 1 s. */
export function sweepIntervalMs(timeoutSeconds: number): number {
  return Math.max(MIN_SWEEP_INTERVAL_MS, Math.min(Math.floor((timeoutSeconds * 1000) / 5), MAX_SWEEP_INTERVAL_MS));
}

/** A body instant the rules refuse (400). */
export function outOfRange(field: string, message: string) {
  return validationError([{ path: `body.${field}`, message }], `\`${field}\` ${message}.`);
}

/** A game-server instant from the body, or the server clock when omitted; at most 60 s ahead of the server clock (400). */
export function clientInstant(field: string, text: string | undefined, now: number): number {
  if (text === undefined) return now;
  const at = parseIsoDateTime(text);
  if (at === undefined) throw outOfRange(field, 'must be an ISO 8601 date-time with an offset');
  if (at > now + MAX_AHEAD_MS) throw outOfRange(field, 'must be at most 60 seconds ahead of the server clock');
  return at;
}

/** A start may be reported late, but by at most 24 hours (400). */
export function assertRecentStart(startedAt: number, now: number): void {
  if (startedAt < now - MAX_START_AGE_MS) throw outOfRange('startedAt', 'must lie within the last 24 hours');
}
