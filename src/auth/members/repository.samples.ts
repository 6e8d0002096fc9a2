import type { Samples } from '../../db/samples.ts';
import * as members from './repository.ts';

export const samples = {
  findMemberships: (db) => members.findMemberships(db, 'user-1'),
} satisfies Samples<typeof members>;
