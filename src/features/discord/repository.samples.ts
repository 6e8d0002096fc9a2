import { WORKSPACE, type Samples } from '../../db/samples.ts';
import * as discord from './repository.ts';

export const samples = {
  findApplicationWorkspaces: (db) => discord.findApplicationWorkspaces(db, '123456789012345678'),
  findChatMember: (db) => discord.findChatMember(db, WORKSPACE, '5551'),
  findWorkspaceConnection: (db) => discord.findWorkspaceConnection(db, WORKSPACE),
} satisfies Samples<typeof discord>;
