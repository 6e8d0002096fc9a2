import { APPLICATION, NOW, type Samples } from '../../db/samples.ts';
import * as keys from './upkeep.ts';

export const samples = {
  insertKeyUnlessExists: (db) =>
    keys.insertKeyUnlessExists(db, {
      id: 'key-1',
      application_id: APPLICATION,
      environment: 'test' as const,
      key_hash: 'key-hash',
      scopes: '["activity:write"]',
      revoked: 0,
      expires_at: null,
      created_at: NOW,
    }),
  updateKey: {
    'scopes only': (db) => keys.updateKey(db, 'key-1', { scopes: '["activity:read"]' }),
    'scopes, revoked and expiry': (db) => keys.updateKey(db, 'key-1', { scopes: '["activity:read"]', revoked: 1, expires_at: NOW }),
  },
} satisfies Samples<typeof keys>;
