import { NOW, RESULT, WORKSPACE, type Samples } from '../db/samples.ts';
import * as journal from './journal.ts';

export const samples = {
  recordOperation: (db) =>
    journal.recordOperation(
      db,
      {
        workspaceId: WORKSPACE,
        environment: 'live',
        commandType: 'application.submission.accept',
        eventType: 'application.submission.accepted',
        actor: { type: 'user', id: 'user-1' },
        request: { requestId: RESULT.requestId, idempotencyKey: RESULT.key },
        submissionId: 'submission-1',
        commandPayload: { submissionId: 'submission-1' },
        eventPayload: { submissionId: 'submission-1', status: 'accepted' },
        at: NOW,
      },
      { submissionId: 'submission-1', status: 'accepted' },
    ),
} satisfies Samples<typeof journal>;
