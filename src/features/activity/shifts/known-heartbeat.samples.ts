import { onlyOn, CREDENTIAL, HEARTBEAT, RESULT, SHIFT, type Samples } from '../../../db/samples.ts';
import * as known from './known-heartbeat.ts';

const WRITE = { known: { ...HEARTBEAT, id: SHIFT, credential: CREDENTIAL }, result: RESULT };

export const samples = {
  recordKnownHeartbeat: onlyOn('sqlite', (db) =>
    db.transaction().execute((trx) => known.recordKnownHeartbeat(trx, WRITE.known, WRITE.result)),
  ),
  recordKnownHeartbeatWithResult: onlyOn('postgres', (db) => known.recordKnownHeartbeatWithResult(db, WRITE)),
  recordKnownHeartbeatsWithResults: onlyOn('postgres', (db) =>
    known.recordKnownHeartbeatsWithResults(db, [
      WRITE,
      { known: { ...WRITE.known, id: 'shift-2' }, result: { ...RESULT, key: 'key-2' } },
    ]),
  ),
} satisfies Samples<typeof known>;
