import { NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as applications from './repository.ts';

export const samples = {
  findSubmission: (db) => applications.findSubmission(db, 'submission-1'),
  updateSubmissionIf: (db) =>
    applications.updateSubmissionIf(db, 'submission-1', ['submitted', 'under_review'], {
      status: 'accepted',
      accepted_at: NOW,
      updated_at: NOW,
    }),
  setStaffProfile: (db) => applications.setStaffProfile(db, 'submission-1', STAFF),
  findStaffIdByGameUser: (db) => applications.findStaffIdByGameUser(db, WORKSPACE, '1001'),
  insertStaffIfAbsent: (db) =>
    applications.insertStaffIfAbsent(db, {
      id: STAFF,
      workspaceId: WORKSPACE,
      displayName: 'Alice',
      gameUserId: '1001',
      gameUsername: 'alice',
      chatUserId: null,
      createdAt: NOW,
    }),
} satisfies Samples<typeof applications>;
