/**
 * The statements other modules run on the `inactivity_notices` table, which this module owns (docs/DATA.md): the
 * document's notices (provisioning) and a person's texts erased.
 */
import { sql, type Insertable } from 'kysely';
import type { Database, Executor } from '../../db/types.ts';
import { upsertRows, type Upsert } from '../../db/upsert.ts';

const NOTICE_SETTINGS = ['staff_id', 'starts_at', 'ends_at', 'reason', 'status', 'decided_at', 'decision_note', 'decided_by'] as const;

// A document rewrites the notices it wrote (a provisioned notice is undecided: its decision columns null), never one
// a staff member asked for through the API.
const NOTICES: Upsert<'inactivity_notices'> = {
  table: 'inactivity_notices',
  conflict: ['id'],
  update: NOTICE_SETTINGS,
  onlyWhenChanged: NOTICE_SETTINGS,
  onlyWhere: { column: 'origin', equals: 'provisioned' },
};

/** Writes a document's notices; returns how many were inserted or changed. */
export function upsertNotices(db: Executor, rows: readonly Insertable<Database['inactivity_notices']>[]): Promise<number> {
  return upsertRows(db, NOTICES, rows);
}

/** The ids of the staff members' inactivity notices (their copies are found by them). */
export async function findNoticeIds(db: Executor, staffIds: readonly string[]): Promise<string[]> {
  if (staffIds.length === 0) return [];
  const rows = await db.selectFrom('inactivity_notices').select('id').where('staff_id', 'in', [...staffIds]).orderBy('id').execute();
  return rows.map((row) => row.id);
}

/**
 * Replaces the reasons and the decision notes that were set (a null note stays null) of the staff members'
 * inactivity notices with `text`; returns the notices changed.
 */
export async function replaceNoticeTexts(db: Executor, staffIds: readonly string[], text: string): Promise<string[]> {
  if (staffIds.length === 0) return [];
  const rows = await db
    .updateTable('inactivity_notices')
    .set({ reason: text, decision_note: sql<string | null>`case when decision_note is null then null else ${text} end` })
    .where('staff_id', 'in', [...staffIds])
    .where((eb) => eb.or([eb('reason', '<>', text), eb.and([eb('decision_note', 'is not', null), eb('decision_note', '<>', text)])]))
    .returning('id')
    .execute();
  return rows.map((row) => row.id).sort();
}
