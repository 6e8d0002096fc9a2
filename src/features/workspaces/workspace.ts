/**
 * The workspace record most requests read (settings, chat binding, activity version): a shared module, not a
 * feature of its own, so every feature may import it.
 */
import { sql, type Selectable } from 'kysely';
import { rowsOf } from '../../db/dialect.ts';
import { checkHolds, holdsColumn, unconfirmedKeyHolds } from '../../auth/keys/api-key.ts';
import type { UnconfirmedKey } from '../../shared/actor.ts';
import type { Executor, WorkspaceTable } from '../../db/types.ts';

export interface WorkspaceSettings {
  readonly createStaffProfileOnAccept: boolean;
  readonly weeklyRequiredMinutes: number | null;
  /** The longest inactivity notice staff may ask for, in days. */
  readonly maxNoticeDays: number;
}

export interface ChatBinding {
  readonly guildId: string | null;
  readonly status: string | null;
  readonly connectedAt: number | null;
}

export interface Workspace {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly timezone: string;
  readonly settings: WorkspaceSettings;
  readonly chat: ChatBinding;
  /** Changes with every write that changes what the workspace's reports rank (caches are keyed on it). */
  readonly activityVersion: number;
}

/** A workspace as its row stores it (`select * from workspaces`, or those columns of a join). */
export type WorkspaceRow = Selectable<WorkspaceTable>;

export function workspaceOfRow(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    timezone: row.timezone,
    settings: {
      createStaffProfileOnAccept: row.create_staff_profile_on_accept === 1,
      weeklyRequiredMinutes: row.weekly_required_minutes,
      maxNoticeDays: Number(row.max_notice_days),
    },
    chat: { guildId: row.chat_guild_id, status: row.chat_status, connectedAt: row.chat_connected_at },
    activityVersion: Number(row.activity_version),
  };
}

/**
 * The workspace. With a hot read's unconfirmed key (shared/actor.ts), the same statement checks that its credential
 * still holds, and PreconditionFailed is thrown when it does not.
 */
export async function findWorkspace(db: Executor, id: string, unconfirmedKey?: UnconfirmedKey): Promise<Workspace | undefined> {
  const precondition = unconfirmedKeyHolds(unconfirmedKey);
  // Most requests read it: a `sql` template costs less to build than a Kysely builder.
  const [row] = await rowsOf(
    db,
    sql<WorkspaceRow & { holds?: unknown }>`select *${holdsColumn(precondition)} from workspaces where id = ${id}`,
  );
  checkHolds(precondition !== undefined, row);
  return row ? workspaceOfRow(row) : undefined;
}

/**
 * The workspace of an authenticated caller (a key's application, or a member's): it exists, by the foreign keys,
 * so its absence is a broken store, not a client error. Checks an unconfirmed key as findWorkspace does.
 */
export async function callerWorkspace(db: Executor, id: string, unconfirmedKey?: UnconfirmedKey): Promise<Workspace> {
  const workspace = await findWorkspace(db, id, unconfirmedKey);
  if (!workspace) throw new Error(`workspace ${id} of an authenticated caller is missing`);
  return workspace;
}

/**
 * Records that what the workspaces' reports rank has changed (a shift completed with its own end, staff
 * created or provisioned), so report caches in every process and instance stop serving what they hold. Called
 * as the last contended write of its transaction: the workspace row lock is then never held while waiting for
 * another lock.
 */
export async function bumpActivityVersion(db: Executor, workspaceIds: readonly string[]): Promise<void> {
  if (workspaceIds.length === 0) return;
  await db
    .updateTable('workspaces')
    .set((eb) => ({ activity_version: eb('activity_version', '+', 1) }))
    .where('id', 'in', [...new Set(workspaceIds)].sort())
    .execute();
}
