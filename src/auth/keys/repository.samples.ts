import { APPLICATION, NOW, type Samples } from '../../db/samples.ts';
import * as keys from './repository.ts';

export const samples = {
  findKey: (db) => keys.findKey(db, 'key-1'),
  listKeys: {
    'every key': (db) => keys.listKeys(db, {}),
    'of one application': (db) => keys.listKeys(db, { applicationId: APPLICATION }),
  },
  findApplication: (db) => keys.findApplication(db, APPLICATION),
  insertKey: (db) =>
    keys.insertKey(db, {
      id: 'key-1',
      application_id: APPLICATION,
      environment: 'test',
      key_hash: 'key-hash',
      scopes: '["activity:write"]',
      revoked: 0,
      expires_at: null,
      created_at: NOW,
    }),
  revokeKey: (db) => keys.revokeKey(db, 'key-1'),
  setKeyExpiry: (db) => keys.setKeyExpiry(db, 'key-1', NOW + 86_400_000),
} satisfies Samples<typeof keys>;
