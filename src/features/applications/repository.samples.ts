import { NOW, RESULT, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
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
  insertCommand: (db) =>
    applications.insertCommand(db, {
      id: 'command-1',
      workspaceId: WORKSPACE,
      type: 'application.submission.accept',
      actorType: 'user',
      actorId: 'user-1',
      submissionId: 'submission-1',
      requestId: RESULT.requestId,
      idempotencyKey: RESULT.key,
      payload: {},
      createdAt: NOW,
    }),
  insertEvent: (db) =>
    applications.insertEvent(db, {
      id: 'event-1',
      workspaceId: WORKSPACE,
      commandId: 'command-1',
      type: 'application.submission.accepted',
      payload: {},
      createdAt: NOW,
    }),
} satisfies Samples<typeof applications>;
