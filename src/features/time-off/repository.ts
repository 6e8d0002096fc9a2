/**
 * The queries of inactivity notices asked for by staff and decided by managers (docs/API.md, "Inactivity notices").
 * Overlap and decision rules hold across instances: every writer that checks a staff member's notices for an
 * overlap first locks that staff member's row, in a statement before the check (`lockStaff`, or
 * `findNoticeLockingStaff` as it reads the notice; SQLite's one writer needs no lock), and every change of a notice
 * is an UPDATE conditional on the state it starts from.
 */
import type { Environment } from '../../shared/actor.ts';
import { sql, type Selectable, type Updateable } from 'kysely';
import { lockingRowsOf, lockRows, rowsOf } from '../../db/dialect.ts';
import type { Executor, InactivityNoticeTable } from '../../db/types.ts';
import type { TimeCursor } from '../../shared/paging.ts';

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

/** The ids of the notices `query` describes: the overlap rule, written once for the reads and the writes below. */
function overlappingNotices(db: Executor, query: OverlapQuery) {
  let select = db
    .selectFrom('inactivity_notices')
    .select('id')
    .where('staff_id', '=', query.staffId)
    .where('environment', '=', query.environment)
    .where('status', 'in', [...query.statuses])
    .where('starts_at', '<', query.end)
    .where('ends_at', '>', query.start);
  if (query.exceptId !== null) select = select.where('id', '<>', query.exceptId);
  return select;
}

/** The notice `query` describes that starts first (then the lowest id); undefined when none does. */
export async function findOverlappingNotice(db: Executor, query: OverlapQuery): Promise<string | undefined> {
  const row = await overlappingNotices(db, query).orderBy('starts_at').orderBy('id').limit(1).executeTakeFirst();
  return row?.id;
}

export async function insertNotice(db: Executor, row: NoticeRow): Promise<void> {
  await db.insertInto('inactivity_notices').values(row).execute();
}

/**
 * Inserts the notice unless a notice `clash` describes exists, in one statement; whether it was inserted. Run it
 * with the staff member's row locked by an earlier statement (`lockStaff`): a statement sees what was committed
 * before it started, so the lock's earlier holders' notices are then seen.
 */
export async function insertNoticeIfClear(db: Executor, row: NoticeRow, clash: OverlapQuery): Promise<boolean> {
  const columns = Object.keys(row) as (keyof NoticeRow)[];
  const result = await db
    .insertInto('inactivity_notices')
    .columns(columns)
    .expression(
      db
        .selectNoFrom(columns.map((column) => sql.val(row[column]).as(column)))
        .where(({ exists, not }) => not(exists(overlappingNotices(db, clash)))),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
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
  if (clearOf !== undefined) update = update.where(({ exists, not }) => not(exists(overlappingNotices(db, clearOf))));
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
