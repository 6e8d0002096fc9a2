import { NOW, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as signIn from './repository.ts';

export const samples = {
  insertSignInCode: (db) =>
    signIn.insertSignInCode(db, { code_hash: 'code-hash', user_id: 'user-1', created_at: NOW, expires_at: NOW + 600_000, used_at: null }),
  consumeSignInCode: (db) => signIn.consumeSignInCode(db, 'code-hash', NOW),
  findMemberByChatUser: (db) => signIn.findMemberByChatUser(db, WORKSPACE, '5551'),
  findMemberWorkspaces: (db) => signIn.findMemberWorkspaces(db, 'user-1'),
} satisfies Samples<typeof signIn>;
