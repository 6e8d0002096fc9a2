import { APPLICATION, NOW, WORKSPACE, type Samples } from '../db/samples.ts';
import * as discord from './discord-repository.ts';

export const samples = {
  findDiscordConnections: (db) => discord.findDiscordConnections(db, ['123456789012345678']),
  upsertDiscordConnection: (db) =>
    discord.upsertDiscordConnection(db, {
      workspace_id: WORKSPACE,
      application_id: APPLICATION,
      public_key: 'ab'.repeat(32),
      environment: 'live',
      updated_at: NOW,
    }),
  deleteDiscordConnections: (db) => discord.deleteDiscordConnections(db, [WORKSPACE]),
} satisfies Samples<typeof discord>;
