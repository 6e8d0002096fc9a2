import { NOW, noQuery, type Samples } from '../../../db/samples.ts';
import * as limit from './call-limit.ts';

export const samples = {
  keyHash: noQuery('hashes a key in memory'),
  takeFrom: noQuery('counts a window in memory'),
  takeCalls: (db) => limit.takeCalls(db, [{ id: 'change-1', apiKey: 'api-key', calls: 2 }], NOW, { max: 300, windowMs: 60_000 }),
} satisfies Samples<typeof limit>;
