import type { Samples } from '../db/samples.ts';
import * as idempotency from './upkeep.ts';

export const samples = {
  findResponseCopies: (db) => idempotency.findResponseCopies(db, ['1001', 'submission-1']),
  setResponseBody: (db) => idempotency.setResponseBody(db, { scope: 'scope-1', key: 'key-1' }, '{}'),
} satisfies Samples<typeof idempotency>;
