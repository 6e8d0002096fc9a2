import { NOW, SHIFT_ROW, type Samples } from '../../../db/samples.ts';
import * as shifts from './upkeep.ts';

export const samples = {
  insertShiftsUnlessExist: (db) =>
    shifts.insertShiftsUnlessExist(db, [{ ...SHIFT_ROW, status: 'completed', ended_at: NOW, end_reason: 'manual' }]),
} satisfies Samples<typeof shifts>;
