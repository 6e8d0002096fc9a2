import { NOW, type Samples } from '../../../db/samples.ts';
import * as outcome from './outcome.ts';

export const samples = {
  writeOutcome: (db) =>
    outcome.writeOutcome(db, {
      id: 'change-1',
      owner: 'rank_sync_1',
      status: 'failed',
      attempts: 1,
      lastError: '{"status":403,"code":"PERMISSION_DENIED","message":"denied"}',
      at: NOW,
      nextAttemptAt: NOW,
    }),
} satisfies Samples<typeof outcome>;
