import { SAMPLE_CLOCK, type Samples } from '../db/samples.ts';
import * as apiKeyAuth from './api-key-auth.ts';

// A well-formed key that no store holds: its lookup runs and finds nothing.
const TOKEN = `wsk_test_${'0'.repeat(40)}`;

export const samples = {
  createApiKeyAuthenticator: (db) =>
    apiKeyAuth
      .createApiKeyAuthenticator({ db, clock: SAMPLE_CLOCK })
      .apiKey(TOKEN)
      .catch(() => null),
} satisfies Samples<typeof apiKeyAuth>;
