import { noQuery, SAMPLE_CLOCK, type Samples } from '../../db/samples.ts';
import * as apiKey from './api-key.ts';

// A well-formed key that no store holds: its lookup runs and finds nothing.
const TOKEN = `wsk_test_${'0'.repeat(40)}`;

export const samples = {
  isApiKeyFormat: noQuery('reads the text of a token'),
  apiKeyEnvironment: noQuery('reads the text of a token'),
  hashApiKey: noQuery('hashes a token'),
  generateApiKey: noQuery('makes a key'),
  keyRefusal: noQuery('reads a key row it is given'),
  usableKey: noQuery('a SQL fragment, shown by the known heartbeat that uses it'),
  credentialHolds: noQuery('a SQL fragment, shown by the known heartbeat that uses it'),
  namedCredential: noQuery('the terms of a SQL fragment, shown by the statements compiled once that use it'),
  holdsColumn: noQuery('a SQL fragment, shown by the statements that take it (the idempotency key, the workspace)'),
  unconfirmedKeyHolds: noQuery('a SQL fragment, shown by the statements that take it (the workspace, the acting staff member)'),
  checkHolds: noQuery('reads a row it is given'),
  createApiKeyAuthenticator: (db) =>
    apiKey
      .createApiKeyAuthenticator({ db, clock: SAMPLE_CLOCK })
      .apiKey(TOKEN)
      .catch(() => null),
} satisfies Samples<typeof apiKey>;
