import { noQuery, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as workspace from './workspace.ts';

export const samples = {
  workspaceOfRow: noQuery('reads a row it is given'),
  findWorkspace: (db) => workspace.findWorkspace(db, WORKSPACE),
  bumpActivityVersion: (db) => workspace.bumpActivityVersion(db, [WORKSPACE]),
} satisfies Samples<typeof workspace>;
