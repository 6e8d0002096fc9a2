/**
 * The queries of inactivity notices asked for by staff and decided by managers (docs/API.md, "Inactivity notices").
 * Overlap and decision rules hold across instances: every writer that checks a staff member's notices for an
 * overlap first locks that staff member's row, in a statement before the check (`lockStaff`, or
 * `findNoticeLockingStaff` as it reads the notice; SQLite's one writer needs no lock), and every change of a notice
 * is an UPDATE conditional on the state it starts from.
 */
import type { Environment } from '../../shared/actor.ts';
import { sql, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import { CompiledOnce } from '../../db/compiled.ts';
import { lockingRowsOf, lockRows, rowsOf } from '../../db/dialect.ts';
import type { Executor, InactivityNoticeTable, SqlTerm } from '../../db/types.ts';
import type { TimeCursor } from '../../shared/paging.ts';
import { OPEN_STATUSES } from './rules.ts';

export type NoticeRow = Selectable<InactivityNoticeTable>;

/** A notice with the staff fields the managers' list shows. */
export interface NoticeItemRow extends NoticeRow {
  readonly display_name: string;
  readonly game_user_id: string;
  readonly chat_user_id: string | null;
  readonly department_id: string | null;
}

/** Locks the staff member's row until the transaction ends (PostgreSQL), serializing overlap checks for them. */
export async function lockStaff(db: Executor, staffId: string): Promise<void> {
  await lockRows(db, sql`select id from staff where id = ${staffId}`);
}

/**
 * The staff member's notices of `environment` in one of `statuses` overlapping `[start, end)` (each starts before
 * the other ends), other than `exceptId`.
 */
export interface OverlapQuery {
  readonly staffId: string;
  readonly environment: Environment;
  readonly statuses: readonly string[];
  readonly start: number;
  readonly end: number;
  readonly exceptId: string | null;
}

/** The span and owner of an overlap check as terms of its statement: values bound, or named ones compiled once. */
interface OverlapTerms {
  readonly staffId: SqlTerm<string>;
  readonly environment: SqlTerm<string>;
  readonly start: SqlTerm<number>;
  readonly end: SqlTerm<number>;
}

/**
 * The ids of the notices an overlap check describes: the overlap rule, written once for the reads and the writes
 * below. `ends_at > start` is the bound the index (staff, environment, end) reads by: only the notices not over
 * when the span starts.
 */
function overlappingNotices(t: OverlapTerms, statuses: readonly string[], exceptId: string | null): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`select id from inactivity_notices
where staff_id = ${t.staffId} and environment = ${t.environment} and status in (${sql.join(statuses)})
  and ends_at > ${t.start} and starts_at < ${t.end}${exceptId === null ? sql`` : sql` and id <> ${exceptId}`}`;
}

function overlapping(query: OverlapQuery): RawBuilder<{ id: string }> {
  return overlappingNotices(query, query.statuses, query.exceptId);
}

/** The notice `query` describes that starts first (then the lowest id); undefined when none does. */
export async function findOverlappingNotice(db: Executor, query: OverlapQuery): Promise<string | undefined> {
  const [row] = await rowsOf(db, sql<{ id: string }>`${overlapping(query)}
order by starts_at, id
limit 1`);
  return row?.id;
}

export async function insertNotice(db: Executor, row: NoticeRow): Promise<void> {
  await db.insertInto('inactivity_notices').values(row).execute();
}

/** Every column of a notice (the record's type makes a column added to the table and not here fail to compile). */
const NOTICE_COLUMNS = Object.keys({
  id: true,
  workspace_id: true,
  staff_id: true,
  starts_at: true,
  ends_at: true,
  reason: true,
  status: true,
  environment: true,
  created_at: true,
  decided_at: true,
  decision_note: true,
  decided_by: true,
  origin: true,
} satisfies Record<keyof NoticeRow, true>) as (keyof NoticeRow)[];

/**
 * insertNoticeIfClear's statement, its values bound by name. Every request for time off runs it: compiled once, as
 * a builder of its thirteen values around the overlap rule cost about as much to compose as SQLite spends running it.
 */
const INSERT_IF_CLEAR = new CompiledOnce<NoticeRow, { id: string }>(
  (term) => sql`insert into inactivity_notices (${sql.join(NOTICE_COLUMNS.map((column) => sql.ref(column)))})
select ${sql.join(NOTICE_COLUMNS.map((column) => term(column)))}
where not exists (${overlappingNotices(
    { staffId: term('staff_id'), environment: term('environment'), start: term('starts_at'), end: term('ends_at') },
    OPEN_STATUSES,
    null,
  )})
returning id`,
);

/**
 * Inserts the notice unless a pending or approved notice of its staff member and environment overlaps it, in one
 * statement; whether it was inserted. Run it with the staff member's row locked by an earlier statement
 * (`lockStaff`): a statement sees what was committed before it started, so the lock's earlier holders' notices are
 * then seen.
 */
export async function insertNoticeIfClear(db: Executor, row: NoticeRow): Promise<boolean> {
  return (await INSERT_IF_CLEAR.rows(db, row)).length === 1;
}

export async function findNotice(db: Executor, id: string): Promise<NoticeRow | undefined> {
  return db.selectFrom('inactivity_notices').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The notice, its staff member's row locked as `lockStaff` locks it (PostgreSQL), in one statement. The lock is
 * taken after the statement's snapshot: a later statement of the transaction sees what the lock's earlier holders
 * committed, this one may not (its notice is as it was before any wait for the lock).
 */
export async function findNoticeLockingStaff(db: Executor, id: string): Promise<NoticeRow | undefined> {
  return db
    .selectFrom('inactivity_notices as n')
    .innerJoin('staff as s', 's.id', 'n.staff_id')
    .selectAll('n')
    .where('n.id', '=', id)
    .modifyEnd(lockingRowsOf(db, 's'))
    .executeTakeFirst();
}

/** The condition a change of a notice starts from: its status and, optionally, where now lies in it. */
export interface NoticeState {
  readonly status: string;
  /** Not started: `starts_at` after this instant. */
  readonly startsAfter?: number;
  /** Under way: `starts_at` at or before this instant and `ends_at` after it. */
  readonly underWayAt?: number;
  /**
   * Clear: no notice this describes exists (an approval: no other approved one overlapping it). The statement sees
   * what was committed before it started: with the staff member's row locked by an earlier statement
   * (`findNoticeLockingStaff`, `lockStaff`), every notice the lock's earlier holders wrote.
   */
  readonly clearOf?: OverlapQuery;
}

/**
 * Applies `changes` only while the notice is in `from`: the database, not a prior read, decides which of two
 * concurrent operations wins. Returns the changed notice, or undefined when its state had moved on.
 */
export async function updateNoticeIf(
  db: Executor,
  id: string,
  from: NoticeState,
  changes: Updateable<InactivityNoticeTable>,
): Promise<NoticeRow | undefined> {
  let update = db.updateTable('inactivity_notices').set(changes).where('id', '=', id).where('status', '=', from.status);
  if (from.startsAfter !== undefined) update = update.where('starts_at', '>', from.startsAfter);
  if (from.underWayAt !== undefined) {
    update = update.where('starts_at', '<=', from.underWayAt).where('ends_at', '>', from.underWayAt);
  }
  const clearOf = from.clearOf;
  if (clearOf !== undefined) update = update.where(sql<boolean>`not exists (${overlapping(clearOf)})`);
  return update.returningAll().executeTakeFirst();
}

/** The staff member's notices of `environment`, by `starts_at` descending then id descending, at most `limit`. */
export async function listStaffNotices(
  db: Executor,
  staffId: string,
  environment: Environment,
  limit: number,
): Promise<NoticeRow[]> {
  return db
    .selectFrom('inactivity_notices')
    .selectAll()
    .where('staff_id', '=', staffId)
    .where('environment', '=', environment)
    .orderBy('starts_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export interface NoticeFilter {
  readonly workspaceId: string;
  readonly environment: Environment;
  readonly statuses: readonly string[];
  readonly staffId: string | null;
  readonly after: TimeCursor | null;
  readonly limit: number;
}

/** One workspace's notices after the cursor, by (starts_at, id), with their staff fields; at most `limit`. */
export async function listNotices(db: Executor, filter: NoticeFilter): Promise<NoticeItemRow[]> {
  const after = filter.after;
  return rowsOf(
    db,
    sql<NoticeItemRow>`select n.*, s.display_name, s.game_user_id, s.chat_user_id, s.department_id
from inactivity_notices as n
join staff as s on s.id = n.staff_id
where n.workspace_id = ${filter.workspaceId} and n.environment = ${filter.environment}
  and n.status in (${sql.join(filter.statuses)})${filter.staffId === null ? sql`` : sql` and n.staff_id = ${filter.staffId}`}${
    after === null ? sql`` : sql`
  and (n.starts_at > ${after.at} or (n.starts_at = ${after.at} and n.id > ${after.id}))`
  }
order by n.starts_at, n.id
limit ${filter.limit}`,
  );
}
