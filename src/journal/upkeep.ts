/**
 * The statements other modules run on the journal's tables, `commands` and `events` (docs/DATA.md): an erasure's
 * search for and rewrite of stored copies, and retention's prune.
 */
import { sql } from 'kysely';
import { deleteInBatch } from '../db/batch-delete.ts';
import { skipLocked } from '../db/dialect.ts';
import type { Executor } from '../db/types.ts';
import { containing, type StoredCopy } from '../shared/stored-copy.ts';

/** Commands of the submissions, or whose payload mentions one of `needles`. */
export async function findCommandCopies(
  db: Executor,
  submissionIds: readonly string[],
  needles: readonly string[],
  workspaceId: string | null = null,
): Promise<Array<StoredCopy<string> & { readonly submissionId: string | null }>> {
  const rows = await db
    .selectFrom('commands')
    .select(['id', 'submission_id', 'payload'])
    .where((eb) =>
      eb.or([
        ...(submissionIds.length > 0 ? [eb('submission_id', 'in', [...submissionIds])] : []),
        ...needles.map((needle) => eb('payload', 'like', containing(needle))),
      ]),
    )
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ key: row.id, text: row.payload, submissionId: row.submission_id }));
}

/** Events of the commands, or whose payload mentions one of `needles`. */
export async function findEventCopies(
  db: Executor,
  commandIds: readonly string[],
  needles: readonly string[],
  workspaceId: string | null = null,
): Promise<Array<StoredCopy<string> & { readonly commandId: string }>> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'command_id', 'payload'])
    .where((eb) =>
      eb.or([
        ...(commandIds.length > 0 ? [eb('command_id', 'in', [...commandIds])] : []),
        ...needles.map((needle) => eb('payload', 'like', containing(needle))),
      ]),
    )
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ key: row.id, text: row.payload, commandId: row.command_id }));
}

export async function setCommandPayload(db: Executor, id: string, payload: string): Promise<void> {
  await db.updateTable('commands').set({ payload }).where('id', '=', id).execute();
}

export async function setEventPayload(db: Executor, id: string, payload: string): Promise<void> {
  await db.updateTable('events').set({ payload }).where('id', '=', id).execute();
}

/** Event records written before `cutoff`. */
export function deleteEventsBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleteInBatch(
    db,
    sql`delete from events where id in (
  select e.id from events as e where e.created_at < ${cutoff} order by e.created_at limit ${limit}${skipLocked(db)})`,
  );
}

/** Command records written before `cutoff` that no event record refers to any more. */
export function deleteCommandsBefore(db: Executor, cutoff: number, limit: number): Promise<number> {
  return deleteInBatch(
    db,
    sql`delete from commands where id in (
  select c.id from commands as c
  where c.created_at < ${cutoff}
    and not exists (select 1 from events as e where e.command_id = c.id)
  order by c.created_at limit ${limit}${skipLocked(db)})`,
  );
}
