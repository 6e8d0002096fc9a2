import { NOW, type Samples } from '../../db/samples.ts';
import * as signingKey from './signing-key-repository.ts';

export const samples = {
  findSigningKey: (db) => signingKey.findSigningKey(db),
  insertSigningKeyIfAbsent: (db) => signingKey.insertSigningKeyIfAbsent(db, { secret: 'c2lnbmluZy1rZXk', created_at: NOW }),
} satisfies Samples<typeof signingKey>;
