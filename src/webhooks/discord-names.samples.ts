import { STAFF, WORKSPACE, type Samples } from '../db/samples.ts';
import * as names from './discord-names.ts';

export const samples = {
  findStaffName: (db) => names.findStaffName(db, WORKSPACE, STAFF),
  findApplicant: (db) => names.findApplicant(db, WORKSPACE, 'submission-1'),
} satisfies Samples<typeof names>;
