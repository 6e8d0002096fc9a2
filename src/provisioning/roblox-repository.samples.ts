import { NOW, WORKSPACE, type Samples } from '../db/samples.ts';
import * as roblox from './roblox-repository.ts';

export const samples = {
  findRanksOfWorkspaces: (db) => roblox.findRanksOfWorkspaces(db, [WORKSPACE]),
  replaceRanks: (db) =>
    roblox.replaceRanks(db, WORKSPACE, [{ workspace_id: WORKSPACE, name: 'Moderator', role_id: '11', rank_order: 10, assignable: 1 }]),
  upsertRobloxSettings: {
    withSecrets: (db) =>
      roblox.upsertRobloxSettings(db, { workspaceId: WORKSPACE, groupId: '123', apiKey: 'key', webhookSecret: 'secret', now: NOW }),
    keepingSecrets: (db) =>
      roblox.upsertRobloxSettings(db, { workspaceId: WORKSPACE, groupId: '123', apiKey: undefined, webhookSecret: undefined, now: NOW }),
  },
} satisfies Samples<typeof roblox>;
