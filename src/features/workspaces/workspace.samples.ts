import { WORKSPACE, type Samples } from '../../db/samples.ts';
import * as workspace from './workspace.ts';

export const samples = {
  findWorkspace: (db) => workspace.findWorkspace(db, WORKSPACE),
  bumpActivityVersion: (db) => workspace.bumpActivityVersion(db, [WORKSPACE]),
} satisfies Samples<typeof workspace>;
