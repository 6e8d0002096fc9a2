import { NOW, OWNER, SHIFT, SHIFT_ROW, type Samples } from '../../../db/samples.ts';
import * as lifecycle from './lifecycle.ts';

export const samples = {
  startShift: (db) => db.transaction().execute((trx) => lifecycle.startShift(trx, SHIFT_ROW)),
  stopShift: (db) =>
    db
      .transaction()
      .execute((trx) =>
        lifecycle.stopShift(trx, SHIFT, { endedAt: NOW, reason: 'manual', staleBefore: NOW - 300_000, owner: OWNER }, NOW),
      ),
  timeOutShift: (db) => db.transaction().execute((trx) => lifecycle.timeOutShift(trx, SHIFT, NOW - 300_000, NOW)),
  timeOutShifts: (db) => db.transaction().execute((trx) => lifecycle.timeOutShifts(trx, NOW - 300_000, 500, NOW)),
} satisfies Samples<typeof lifecycle>;
