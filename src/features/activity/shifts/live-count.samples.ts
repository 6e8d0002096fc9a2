import { SAMPLE_CLOCK, type Samples } from '../../../db/samples.ts';
import * as liveCount from './live-count.ts';

export const samples = {
  createLiveShiftCounter: (db) => liveCount.createLiveShiftCounter({ db, clock: SAMPLE_CLOCK, config: { shiftTimeoutSeconds: 300 } })(),
} satisfies Samples<typeof liveCount>;
