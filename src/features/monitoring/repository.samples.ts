import type { Samples } from '../../db/samples.ts';
import * as operations from './repository.ts';

export const samples = {
  pingDatabase: (db) => operations.pingDatabase(db),
} satisfies Samples<typeof operations>;
