import { CREDENTIAL, noQuery, NOW, WORKSPACE, type Samples } from '../../db/samples.ts';
import { credentialHolds } from '../../keys/api-key.ts';
import * as workspace from './workspace.ts';

export const samples = {
  workspaceOfRow: noQuery('reads a row it is given'),
  findWorkspace: async (db) => {
    await workspace.findWorkspace(db, WORKSPACE);
    // With a read's cached key to check.
    return workspace.findWorkspace(db, WORKSPACE, credentialHolds(CREDENTIAL, NOW)).catch(() => undefined);
  },
  bumpActivityVersion: (db) => workspace.bumpActivityVersion(db, [WORKSPACE]),
} satisfies Samples<typeof workspace>;
