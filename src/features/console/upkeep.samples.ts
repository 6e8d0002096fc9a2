import { NOW, type Samples } from '../../db/samples.ts';
import * as console from './upkeep.ts';

const CUTOFF = NOW - 180 * 24 * 3_600_000;

export const samples = {
  deleteSignInCodesBefore: (db) => console.deleteSignInCodesBefore(db, CUTOFF, 500),
} satisfies Samples<typeof console>;
