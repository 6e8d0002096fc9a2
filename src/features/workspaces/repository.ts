import type { Executor } from '../../db/types.js';

export interface WorkspaceSettings {
  readonly createStaffProfileOnAccept: boolean;
  readonly weeklyRequiredMinutes: number | null;
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
}

export async function findWorkspace(db: Executor, id: string): Promise<Workspace | undefined> {
  const row = await db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    timezone: row.timezone,
    settings: {
      createStaffProfileOnAccept: row.create_staff_profile_on_accept === 1,
      weeklyRequiredMinutes: row.weekly_required_minutes,
    },
    chat: { guildId: row.chat_guild_id, status: row.chat_status, connectedAt: row.chat_connected_at },
  };
}
