import type { Insertable } from 'kysely';
import type { WorkspaceTable } from '../../src/db/types.ts';

/** A complete `workspaces` row for tests that write the table directly (the slug is the id unless given). */
export function workspaceRow(
  id: string,
  name: string,
  createdAt: number,
  overrides: Partial<Insertable<WorkspaceTable>> = {},
): Insertable<WorkspaceTable> {
  return {
    id,
    name,
    slug: id,
    timezone: 'UTC',
    settings: '{}',
    create_staff_profile_on_accept: 0,
    weekly_required_minutes: null,
    chat_guild_id: null,
    chat_status: null,
    chat_connected_at: null,
    created_at: createdAt,
    updated_at: createdAt,
    ...overrides,
  };
}
