import { NOW, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as workspaces from './upkeep.ts';

export const samples = {
  upsertWorkspaces: (db) =>
    workspaces.upsertWorkspaces(db, [
      {
        id: WORKSPACE,
        name: 'Workspace',
        slug: 'workspace',
        timezone: 'UTC',
        settings: '{}',
        create_staff_profile_on_accept: 0,
        weekly_required_minutes: null,
        chat_guild_id: null,
        chat_status: null,
        chat_connected_at: null,
        created_at: NOW,
        updated_at: NOW,
      },
    ]),
  releaseWorkspaceSlug: (db) => workspaces.releaseWorkspaceSlug(db, WORKSPACE),
  lockWorkspacesForTotals: (db) => workspaces.lockWorkspacesForTotals(db, [WORKSPACE]),
} satisfies Samples<typeof workspaces>;
