import { CREDENTIAL, noQuery, NOW, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as workspace from './workspace.ts';

export const samples = {
  workspaceOfRow: noQuery('reads a row it is given'),
  findWorkspace: async (db) => {
    await workspace.findWorkspace(db, WORKSPACE);
    // With a hot read's unconfirmed key to check.
    return workspace.findWorkspace(db, WORKSPACE, { credential: CREDENTIAL, at: NOW }).catch(() => undefined);
  },
  callerWorkspace: (db) => workspace.callerWorkspace(db, WORKSPACE).catch(() => undefined),
  bumpActivityVersion: (db) => workspace.bumpActivityVersion(db, [WORKSPACE]),
} satisfies Samples<typeof workspace>;
