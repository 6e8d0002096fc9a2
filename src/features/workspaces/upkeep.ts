/**
 * The statements other modules run on the `workspaces` table, which this module owns (docs/DATA.md): the
 * document's rows (provisioning), a slug given up within one document, and the activity version a totals writer
 * moves.
 */
import { sql, type Insertable } from 'kysely';
import { inJsonList } from '../../db/dialect.ts';
import type { Database, Executor } from '../../db/types.ts';
import { upsertRows, type Upsert } from '../../db/upsert.ts';

const WORKSPACE_SETTINGS = [
  'name',
  'slug',
  'timezone',
  'settings',
  'create_staff_profile_on_accept',
  'weekly_required_minutes',
  'max_notice_days',
  'chat_guild_id',
  'chat_status',
  'chat_connected_at',
] as const;

// Overwritten from the document only when something differs, so re-applying leaves `updated_at` alone and counts
// no change.
const WORKSPACES: Upsert<'workspaces'> = {
  table: 'workspaces',
  conflict: ['id'],
  update: [...WORKSPACE_SETTINGS, 'updated_at'],
  onlyWhenChanged: WORKSPACE_SETTINGS,
};

/** Writes a document's workspaces; returns how many were inserted or changed. */
export function upsertWorkspaces(db: Executor, rows: readonly Insertable<Database['workspaces']>[]): Promise<number> {
  return upsertRows(db, WORKSPACES, rows);
}

/** Gives up the workspace's slug for a placeholder no real slug can take ("~" and its id). */
export async function releaseWorkspaceSlug(db: Executor, workspaceId: string): Promise<void> {
  await db.updateTable('workspaces').set({ slug: `~${workspaceId}` }).where('id', '=', workspaceId).execute();
}

/** A workspace's row as a totals writer locked it: its time zone and the activity version it moved to. */
export interface LockedWorkspace {
  readonly timezone: string;
  readonly version: number;
}

/**
 * Locks the workspaces' rows for a change of their totals and returns their time zones and new versions. The
 * lock (an UPDATE that also moves `activity_version`, which report caches are keyed on) orders every totals
 * writer of a workspace after a concurrent time-zone change and its rebuild, so buckets are always those of the
 * zone in force when the change commits; and it makes the version it returns this transaction's own.
 */
export async function lockWorkspacesForTotals(db: Executor, workspaceIds: readonly string[]): Promise<Map<string, LockedWorkspace>> {
  const ids = [...new Set(workspaceIds)].sort();
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; timezone: string; activity_version: number }>`update workspaces set activity_version = activity_version + 1
where ${inJsonList(db, 'id', ids)}
returning id, timezone, activity_version`.execute(db);
  return new Map(rows.map((row) => [row.id, { timezone: row.timezone, version: Number(row.activity_version) }]));
}

