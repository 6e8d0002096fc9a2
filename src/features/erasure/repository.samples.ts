import { NOW, type Samples } from '../../db/samples.ts';
import * as erasure from './repository.ts';

export const samples = {
  insertErasure: (db) => erasure.insertErasure(db, { id: 'erasure-1', ranAt: NOW, changes: '{}' }),
} satisfies Samples<typeof erasure>;
